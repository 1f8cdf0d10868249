// Validates rendered Kubernetes objects against the Kubernetes API schemas of the pinned `kubernetes-models`
// packages (the core API, the Prometheus Operator's and the Gateway API's CRDs). Reads a multi-document YAML
// stream (`helm template` output) on stdin and prints a JSON array, one entry per object:
// { apiVersion, kind, name, errors }, where `errors` is empty for a valid object. An object whose
// apiVersion/kind no package knows is an error too. ESM, since the models are ESM-only packages.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

/** The package that holds each API group's models; the core and built-in groups are kubernetes-models'. */
const PACKAGES = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'gateway.networking.k8s.io': '@kubernetes-models/gateway-api',
};

async function modelFor(apiVersion, kind) {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const pkg = PACKAGES[group] ?? 'kubernetes-models';
  let module;
  try {
    module = await import(`${pkg}/${apiVersion}`);
  } catch {
    return undefined;
  }
  return module[kind];
}

const results = [];
for (const doc of parseAllDocuments(readFileSync(0, 'utf8'))) {
  if (doc.errors.length > 0) {
    results.push({ apiVersion: '', kind: '', name: '', errors: doc.errors.map(String) });
    continue;
  }
  const object = doc.toJS();
  if (object === null || object === undefined) continue;
  const { apiVersion = '', kind = '' } = object;
  const name = object.metadata?.name ?? '';
  const Model = typeof apiVersion === 'string' ? await modelFor(apiVersion, kind) : undefined;
  if (!Model) {
    results.push({ apiVersion, kind, name, errors: [`no schema for ${apiVersion} ${kind}`] });
    continue;
  }
  try {
    new Model(object).validate();
    results.push({ apiVersion, kind, name, errors: [] });
  } catch (error) {
    results.push({ apiVersion, kind, name, errors: [String(error.message ?? error)] });
  }
}
process.stdout.write(JSON.stringify(results));
