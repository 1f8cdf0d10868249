/** The slice of the chart's values that decides which apps it renders. */
export interface ChartAppsValues<A> {
  readonly apps: Readonly<Record<string, A | undefined>>;
  readonly mirrorDefaults: Readonly<Record<string, unknown>>;
  readonly mirrors: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;
}

/**
 * The apps the chart renders a Deployment and a Service for (when enabled), as `router.collectApps` in
 * templates/_helpers.tpl collects them: each of `apps` as it is, and each of `mirrors` merged over
 * `mirrorDefaults` (Sprig's mergeOverwrite: the mirror's keys win, maps merge key by key, a list is replaced)
 * with `sharedConfig: true`, for the unit specs; chart-render.int-spec.ts renders the real thing with helm.
 */
export function chartApps<A>(values: ChartAppsValues<A>): Record<string, A> {
  const apps: Record<string, A> = {};
  for (const [name, app] of Object.entries(values.apps)) if (app) apps[name] = app;
  for (const [name, mirror] of Object.entries(values.mirrors)) {
    if (!mirror) continue;
    apps[name] = { ...mergeOver(values.mirrorDefaults, mirror), sharedConfig: true } as A;
  }
  return apps;
}

function mergeOver(base: Readonly<Record<string, unknown>>, over: Readonly<Record<string, unknown>>) {
  const merged: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    const below = merged[key];
    merged[key] = isMap(below) && isMap(value) ? mergeOver(below, value) : structuredClone(value);
  }
  return merged;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
