export {
  APP_NAMES,
  APPS,
  ALWAYS_SET,
  appSpec,
  DEPLOYED_APP_NAMES,
  MIRROR_APP_NAMES,
  MIRROR_URL_VARIABLES,
  SECRET_VARIABLES,
  secretsOf,
} from './apps-table';
export type { AppName, AppSpec } from './apps-table';
export { parseDockerfile } from './dockerfile-stages';
export type { DockerInstruction, DockerStage, ParsedDockerfile } from './dockerfile-stages';
export { chartEnvNames, composeEnvNames, configMapDataKeys } from './env-names';
export type { ChartAppEnv } from './env-names';
export { chartApps } from './chart-apps';
export type { ChartAppsValues } from './chart-apps';
