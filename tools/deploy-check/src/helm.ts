import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const REPO_ROOT = join(__dirname, '..', '..', '..');
export const CHART_DIR = join(REPO_ROOT, 'deploy', 'helm', 'router');
const VALIDATOR = join(__dirname, '..', 'scripts', 'validate-k8s.mjs');

/**
 * The helm binary: `HELM` when set, else the one `tools/services/ensure.sh helm` installs in tmp/helm (npm test
 * runs it first). Missing is an error, never a skip.
 */
export function helmBinary(): string {
  const given = process.env.HELM;
  if (given) return given;
  const dir = join(REPO_ROOT, 'tmp', 'helm');
  const installed = existsSync(dir) ? readdirSync(dir).filter((file) => file.startsWith('helm-v')) : [];
  if (installed.length === 0) {
    throw new Error('No helm binary: run `bash tools/services/ensure.sh helm` (npm test does), or set HELM');
  }
  return join(dir, installed.sort().at(-1) as string);
}

export interface HelmRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function helm(args: readonly string[]): HelmRun {
  const run = spawnSync(helmBinary(), args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** What selects a chart's render: values files (from the repo root) and `--set` pairs. */
export interface ChartInput {
  readonly valuesFiles?: readonly string[];
  readonly set?: readonly string[];
}

function valueArgs(input: ChartInput): string[] {
  return [
    ...(input.valuesFiles ?? []).flatMap((file) => ['-f', join(REPO_ROOT, file)]),
    ...(input.set ?? []).flatMap((pair) => ['--set', pair]),
  ];
}

export function lintChart(input: ChartInput = {}): HelmRun {
  return helm(['lint', '--strict', CHART_DIR, ...valueArgs(input)]);
}

/** `helm template` as release `rel` in namespace `router`; the run as it went (a refusal is not thrown). */
export function templateChart(input: ChartInput = {}): HelmRun {
  return helm(['template', 'rel', CHART_DIR, '--namespace', 'router', ...valueArgs(input)]);
}

/** A rendered Kubernetes object: the fields every kind has, the rest read by the checks that need it. */
export interface K8sObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels?: Record<string, string> };
  readonly [field: string]: unknown;
}

/** The objects of a render, parsed with the yaml library; a render helm refuses throws with helm's message. */
export function renderChart(input: ChartInput = {}): { yaml: string; objects: K8sObject[] } {
  const run = templateChart(input);
  if (run.status !== 0) throw new Error(`helm template failed:\n${run.stderr}`);
  const objects = parseAllDocuments(run.stdout)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`helm rendered invalid YAML: ${doc.errors.join('; ')}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
  return { yaml: run.stdout, objects };
}

export interface SchemaVerdict {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** Empty when the object is valid against its Kubernetes API schema. */
  readonly errors: readonly string[];
}

/** Each object of a YAML stream checked against the Kubernetes API schemas (scripts/validate-k8s.mjs). */
export function validateAgainstKubernetes(yaml: string): SchemaVerdict[] {
  const run = spawnSync(process.execPath, [VALIDATOR], {
    input: yaml,
    encoding: 'utf8',
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`validate-k8s failed:\n${run.stderr}`);
  return JSON.parse(run.stdout) as SchemaVerdict[];
}
