/**
 * A path segment percent-decoded as the vendors' servers decode it: every valid `%XX` run becomes its bytes,
 * read as UTF-8 with invalid sequences replaced by U+FFFD; an escape that is not one (`%ZZ`, a lone `%`)
 * stays as it was. It never throws, so a client's malformed escape is an unknown id the vendor refuses in
 * its own words, not a failure of the router's (`decodeURIComponent` throws on both `%ZZ` and `%E0%A4`).
 */
export function decodePathSegment(segment: string): string {
  return segment.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) =>
    Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'),
  );
}
