import { ALWAYS_SET } from './apps-table';

/** The slice of one `apps.<name>` entry of the chart's values that decides a pod's environment. */
export interface ChartAppEnv {
  readonly sharedConfig: boolean;
  readonly env: Readonly<Record<string, unknown>>;
  readonly secretEnv: readonly string[];
  readonly optionalSecretEnv?: readonly string[];
  readonly extraEnv?: readonly { readonly name: string }[];
  /** Whether it gets each enabled mirror's URL (the gateway). */
  readonly mirrorUrls?: boolean;
}

/**
 * Variable names a chart pod of this app receives, mirroring templates/deployment.yaml; `mirrorUrlVariables`
 * are those of the enabled mirrors.
 */
export function chartEnvNames(
  app: ChartAppEnv,
  configMapKeys: readonly string[],
  mirrorUrlVariables: readonly string[] = [],
): Set<string> {
  return new Set([
    ...ALWAYS_SET,
    ...(app.mirrorUrls ? mirrorUrlVariables : []),
    ...(app.sharedConfig ? configMapKeys : []),
    ...Object.keys(app.env),
    ...app.secretEnv,
    ...(app.optionalSecretEnv ?? []),
    ...(app.extraEnv ?? []).map((variable) => variable.name),
  ]);
}

/** The keys under `data:` of a ConfigMap template whose data values are single-line templates. */
export function configMapDataKeys(template: string): string[] {
  const data = /^data:\s*\n((?:[ \t]+\S.*(?:\n|$))+)/m.exec(template);
  if (!data) throw new Error('No data: block in the ConfigMap template');
  return [...data[1].matchAll(/^[ \t]+([A-Za-z_][A-Za-z0-9_]*):/gm)].map((match) => match[1]);
}

/** Variable names of a compose service's `environment`, in map or `KEY=value` list form. */
export function composeEnvNames(environment: unknown): Set<string> {
  if (environment === undefined || environment === null) return new Set();
  if (Array.isArray(environment)) {
    return new Set(environment.map((entry) => String(entry).split('=')[0]));
  }
  if (typeof environment === 'object') return new Set(Object.keys(environment));
  throw new Error('A compose environment must be a map or a list');
}
