export { APP_NAMES, APPS, ALWAYS_SET, SECRET_VARIABLES, secretsOf } from './apps-table';
export type { AppName, AppSpec } from './apps-table';
export { parseDockerfile } from './dockerfile-stages';
export type { DockerInstruction, DockerStage, ParsedDockerfile } from './dockerfile-stages';
export { chartEnvNames, composeEnvNames, configMapDataKeys } from './env-names';
export type { ChartAppEnv } from './env-names';
