import { replyAppEnv, requestBodyEnv, VENDOR_TOKENS, type VendorToken } from './common-env';
import { env } from './env-schema';

type Letter = (typeof VENDOR_TOKENS)[number];

/**
 * How a vendor's mirror app is named and reached, one rule for every vendor: the app, its image, its e2e stack
 * member, its Helm and compose entries are all `mirror-vendor-x`, and its default PORT is 3011 + the vendor's
 * place in the spec's order (vendor_a 3011 … vendor_j 3020), so ten mirrors never share a port.
 */
export function mirrorAppName(vendor: VendorToken): `mirror-vendor-${Letter}` {
  return `mirror-vendor-${letterOf(vendor)}`;
}

/** The vendor whose mirror app `app` is (`mirror-vendor-x`), or undefined for any other name. */
export function mirrorAppVendor(app: string): VendorToken | undefined {
  const letter = /^mirror-vendor-([a-z])$/.exec(app)?.[1];
  return letter !== undefined && (VENDOR_TOKENS as readonly string[]).includes(letter)
    ? (`vendor_${letter}` as VendorToken)
    : undefined;
}

export function mirrorAppPort(vendor: VendorToken): number {
  return 3011 + VENDOR_TOKENS.indexOf(letterOf(vendor));
}

/** The gateway's variable for a vendor's mirror app URL, `MIRROR_VENDOR_X_URL`. */
export function mirrorUrlVariable(vendor: VendorToken): `MIRROR_VENDOR_${Uppercase<Letter>}_URL` {
  return `MIRROR_VENDOR_${letterOf(vendor).toUpperCase() as Uppercase<Letter>}_URL`;
}

/**
 * The gateway's mirror app URLs, one optional variable per vendor that has a mirror (the caller passes the
 * registry's). A vendor whose variable is not set has no mirror route: `/<vendor token>/…` is an unknown path.
 */
export function mirrorUpstreamEnv(
  vendors: readonly VendorToken[],
): Record<string, ReturnType<typeof env.optionalUrl>> {
  return Object.fromEntries(
    vendors.map((vendor) => [mirrorUrlVariable(vendor), env.optionalUrl({ protocols: ['http'] })]),
  );
}

/** The configured mirror app URLs of `vendors`, keyed by vendor token, leaving out the ones not set. */
export function mirrorUrls(
  config: Readonly<Record<string, unknown>>,
  vendors: readonly VendorToken[],
): Partial<Record<VendorToken, string>> {
  const urls: Partial<Record<VendorToken, string>> = {};
  for (const vendor of vendors) {
    const value = config[mirrorUrlVariable(vendor)];
    if (typeof value === 'string') urls[vendor] = value;
  }
  return urls;
}

/** What a vendor's mirror app reads: every setting of an app that plays replies, its listener and its limits. */
export function mirrorAppEnv(vendor: VendorToken) {
  return {
    ...replyAppEnv,
    ...requestBodyEnv,
    PORT: env.int({ default: mirrorAppPort(vendor), min: 0, max: 65535 }),
    HOST: env.string({ default: '0.0.0.0' }),
    MAX_SOCKET_MESSAGE_BYTES: env.int({ default: 256 * 1024, min: 1024 }),
    // 0: every socket keeps its vendor's idle limit. Set, it caps them all (tests see an idle close in seconds).
    MIRROR_SOCKET_IDLE_CAP_MS: env.int({ default: 0, min: 0 }),
  };
}

function letterOf(vendor: VendorToken): Letter {
  const letter = vendor.slice('vendor_'.length);
  if (!(VENDOR_TOKENS as readonly string[]).includes(letter))
    throw new Error(`Not a vendor token: ${vendor}`);
  return letter as Letter;
}
