// Container HEALTHCHECK: GET /healthz on the app's own port with Node's built-in fetch (no curl in the slim
// image). The ports mirror each app's default PORT; PORT set in the environment wins, as it does for the app.
'use strict';

const DEFAULT_PORTS = {
  'edge-gateway': 8080,
  'native-api': 3001,
  'synthesis-worker': 3002,
  'cache-service': 3003,
  'vendor-sim': 4010,
  dashboard: 3004,
  // ---- generated: mirror-ports (tools/deploy-gen from the registry, `npm run deploy:gen`; do not edit) ----
  'mirror-vendor-a': 3011,
  'mirror-vendor-b': 3012,
  'mirror-vendor-c': 3013,
  'mirror-vendor-d': 3014,
  'mirror-vendor-e': 3015,
  'mirror-vendor-f': 3016,
  'mirror-vendor-g': 3017,
  'mirror-vendor-h': 3018,
  'mirror-vendor-i': 3019,
  'mirror-vendor-j': 3020,
  // ---- end generated: mirror-ports ----
};

const port = process.env.PORT || DEFAULT_PORTS[process.env.APP];
if (!port) {
  console.error(`healthcheck: no PORT and no default port for APP=${process.env.APP}`);
  process.exit(1);
}

fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
