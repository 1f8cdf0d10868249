/*
 * vendor_i's API versions are dates, sent in `vendor_i-Version` (or the `vendor_i_version` query). They pick
 * the error shape: JSON from 2026-03-01, plain `Title: Message` text before.
 */

/** The version the adapter speaks: JSON error bodies and the current request shape. */
export const VENDOR_I_API_VERSION = '2026-08-14';
export const VENDOR_I_JSON_ERRORS_FROM = '2026-03-01';
/** The oldest version the vendor still serves. */
export const VENDOR_I_OLDEST_VERSION = '2024-06-10';

/** A version the vendor knows: a real date, not before its oldest and not in the future. */
export function isKnownVersion(version: string | undefined): boolean {
  if (version === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(version)) return false;
  const date = new Date(`${version}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== version) return false;
  return version >= VENDOR_I_OLDEST_VERSION && date.getTime() <= Date.now();
}

export function jsonErrors(version: string | undefined): boolean {
  return version !== undefined && isKnownVersion(version) && version >= VENDOR_I_JSON_ERRORS_FROM;
}
