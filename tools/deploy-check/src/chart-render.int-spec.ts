// Renders deploy/helm/router with a real helm (tools/services/ensure.sh helm installs the pinned binary) for the
// default values and every example values file, validates every rendered object against the Kubernetes API
// schemas, and checks what a production cluster needs of each object. The objects are read with the yaml
// library from helm's own output, never from the templates.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIRROR_APP_NAMES } from './apps-table';
import { unknownFields } from './unknown-fields';
import {
  CHART_DIR,
  type ChartInput,
  type K8sObject,
  lintChart,
  renderChart,
  templateChart,
  validateAgainstKubernetes,
} from './helm';

type Labels = Record<string, string>;
interface LabelSelector {
  matchLabels?: Labels;
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  env?: { name: string; value?: string }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
  };
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean };
  terminationGracePeriodSeconds?: number;
  topologySpreadConstraints?: { topologyKey: string; labelSelector?: LabelSelector }[];
}
interface Workload extends K8sObject {
  spec: { replicas?: number; template: { metadata: { labels: Labels }; spec: PodSpec } };
}
interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string };
}
interface NetworkPolicy extends K8sObject {
  spec: {
    podSelector: LabelSelector;
    policyTypes: string[];
    ingress?: { from?: NetworkPolicyPeer[]; ports?: { port: string | number }[] }[];
    egress?: { to?: NetworkPolicyPeer[]; ports?: { port: string | number }[] }[];
  };
}
interface Hpa extends K8sObject {
  spec: { minReplicas: number; scaleTargetRef: { kind: string; name: string } };
}
interface Pdb extends K8sObject {
  spec: { selector: LabelSelector };
}
interface Service extends K8sObject {
  spec: { selector: Labels; ports: { name: string }[] };
}
interface ServiceMonitor extends K8sObject {
  spec: { selector: LabelSelector; endpoints: { port: string }[] };
}

const EXAMPLES = readdirSync(join(CHART_DIR, 'examples'))
  .filter((file) => file.endsWith('.yaml'))
  .sort();

interface Render {
  readonly label: string;
  readonly input: ChartInput;
  /** Whether its pods are spread across zones and nodes (topologySpread.enabled). */
  readonly spread: boolean;
}
/** The examples that turn spreading off. */
const UNSPREAD = ['minimal.yaml'];
const RENDERS: Render[] = [
  { label: 'default values', input: {}, spread: true },
  ...EXAMPLES.map((file) => ({
    label: `examples/${file}`,
    input: { valuesFiles: [`deploy/helm/router/examples/${file}`] },
    spread: !UNSPREAD.includes(file),
  })),
];

const COMPONENT = 'app.kubernetes.io/component';
const selects = (selector: LabelSelector | undefined, labels: Labels): boolean =>
  Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
const ofKind = <T extends K8sObject>(objects: K8sObject[], kind: string): T[] =>
  objects.filter((object) => object.kind === kind) as T[];
const podLabels = (workload: Workload): Labels => workload.spec.template.metadata.labels;
const componentOf = (workload: Workload): string => podLabels(workload)[COMPONENT];
const envOf = (container: Container, name: string): string | undefined =>
  container.env?.find((variable) => variable.name === name)?.value;

describe.each(RENDERS)('the chart rendered with $label', ({ input, spread }) => {
  const { yaml, objects } = renderChart(input);
  const deployments = ofKind<Workload>(objects, 'Deployment');
  const policies = ofKind<NetworkPolicy>(objects, 'NetworkPolicy');
  const hpas = ofKind<Hpa>(objects, 'HorizontalPodAutoscaler');
  const gateway = deployments.find((deployment) => componentOf(deployment) === 'edge-gateway');
  const minReplicas = (deployment: Workload): number =>
    hpas.find((hpa) => hpa.spec.scaleTargetRef.name === deployment.metadata.name)?.spec.minReplicas ??
    deployment.spec.replicas ??
    1;

  it('passes helm lint --strict', () => {
    const lint = lintChart(input);
    expect({ status: lint.status, output: lint.status === 0 ? '' : lint.stdout + lint.stderr }).toEqual({
      status: 0,
      output: '',
    });
  });

  it('renders only objects valid against the Kubernetes API schemas', () => {
    const verdicts = validateAgainstKubernetes(yaml);
    expect(verdicts).toHaveLength(objects.length);
    expect(verdicts.filter((verdict) => verdict.errors.length > 0)).toEqual([]);
  });

  it.each(['Deployment', 'Job'])(
    'gives every %s container requests, a memory limit, a non-root user and a read-only root',
    (kind) => {
      for (const workload of ofKind<Workload>(objects, kind)) {
        const pod = workload.spec.template.spec;
        for (const container of pod.containers) {
          const at = `${kind} ${workload.metadata.name}/${container.name}`;
          expect({ at, requests: Object.keys(container.resources?.requests ?? {}).sort() }).toEqual({
            at,
            requests: ['cpu', 'memory'],
          });
          expect({ at, memoryLimit: container.resources?.limits?.memory !== undefined }).toEqual({
            at,
            memoryLimit: true,
          });
          const nonRoot = container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
          expect({ at, nonRoot, readOnlyRoot: container.securityContext?.readOnlyRootFilesystem }).toEqual({
            at,
            nonRoot: true,
            readOnlyRoot: true,
          });
          expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
        }
      }
    },
  );

  it('probes every app container: startup and liveness on /healthz, readiness on /readyz', () => {
    for (const deployment of deployments) {
      for (const container of deployment.spec.template.spec.containers) {
        expect({
          at: deployment.metadata.name,
          startup: container.startupProbe?.httpGet?.path,
          liveness: container.livenessProbe?.httpGet?.path,
          readiness: container.readinessProbe?.httpGet?.path,
        }).toEqual({
          at: deployment.metadata.name,
          startup: '/healthz',
          liveness: '/healthz',
          readiness: '/readyz',
        });
      }
    }
  });

  it('gives every pod longer to stop than its drain (DRAIN_MS)', () => {
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      const drainMs = Number(envOf(pod.containers[0], 'DRAIN_MS'));
      expect(drainMs).toBeGreaterThan(0);
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drainMs / 1000);
    }
  });

  it('covers every app behind the gateway with a NetworkPolicy that admits only the gateway', () => {
    expect(gateway).toBeDefined();
    const gatewayPods = podLabels(gateway as Workload);
    for (const deployment of deployments.filter((d) => d !== gateway)) {
      const at = deployment.metadata.name;
      const mine = policies.filter((policy) => selects(policy.spec.podSelector, podLabels(deployment)));
      expect({
        at,
        ingressPolicies: mine.filter((p) => p.spec.policyTypes.includes('Ingress')).length,
      }).toEqual({
        at,
        ingressPolicies: 1,
      });
      for (const rule of mine.flatMap((policy) => policy.spec.ingress ?? [])) {
        // Never open to all; a pod peer is the gateway's pods (or, for the simulator, the release's).
        expect({ at, from: (rule.from ?? []).length > 0 }).toEqual({ at, from: true });
        for (const peer of rule.from ?? []) {
          if (peer.podSelector && !peer.namespaceSelector) {
            const admitsGateway = selects(peer.podSelector, gatewayPods);
            expect({ at, admitsGateway }).toEqual({ at, admitsGateway: true });
            if (componentOf(deployment) !== 'vendor-sim') {
              expect(peer.podSelector.matchLabels?.[COMPONENT]).toBe('edge-gateway');
            }
          }
        }
      }
    }
  });

  it('lets the worker and cache-service be reached by no pod, and the gateway reach the apps behind it', () => {
    for (const deployment of deployments) {
      const component = componentOf(deployment);
      const mine = policies.filter((policy) => selects(policy.spec.podSelector, podLabels(deployment)));
      const podPeers = mine
        .flatMap((policy) => policy.spec.ingress ?? [])
        .flatMap((rule) => rule.from ?? [])
        .filter((peer) => peer.podSelector);
      if (component === 'synthesis-worker' || component === 'cache-service') expect(podPeers).toEqual([]);
      if (component === 'native-api' || component === 'dashboard' || MIRROR_APP_NAMES.includes(component)) {
        expect({ component, fromGateway: podPeers.length }).toEqual({ component, fromGateway: 1 });
        const gatewayEgress = policies
          .filter((policy) => selects(policy.spec.podSelector, podLabels(gateway as Workload)))
          .flatMap((policy) => policy.spec.egress ?? [])
          .some((rule) => (rule.to ?? []).some((peer) => selects(peer.podSelector, podLabels(deployment))));
        expect({ component, gatewayEgress }).toEqual({ component, gatewayEgress: true });
      }
    }
  });

  it('gives every app that never runs fewer than two pods a PodDisruptionBudget, and no other', () => {
    const budgets = ofKind<Pdb>(objects, 'PodDisruptionBudget');
    for (const deployment of deployments) {
      const covering = budgets.filter((budget) => selects(budget.spec.selector, podLabels(deployment)));
      expect({ at: deployment.metadata.name, budgets: covering.length }).toEqual({
        at: deployment.metadata.name,
        budgets: minReplicas(deployment) > 1 ? 1 : 0,
      });
    }
  });

  it(spread ? 'spreads the pods of every app across zones and nodes' : 'leaves spreading off', () => {
    for (const deployment of deployments) {
      const constraints = deployment.spec.template.spec.topologySpreadConstraints ?? [];
      expect(constraints.map((constraint) => constraint.topologyKey).sort()).toEqual(
        spread ? ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'] : [],
      );
      for (const constraint of constraints) {
        expect(selects(constraint.labelSelector, podLabels(deployment))).toBe(true);
      }
    }
  });

  it("wires every Service, autoscaler and ServiceMonitor to the release's own objects", () => {
    const services = ofKind<Service>(objects, 'Service');
    for (const service of services) {
      expect(
        deployments.filter((d) => selects({ matchLabels: service.spec.selector }, podLabels(d))),
      ).toHaveLength(1);
    }
    for (const hpa of hpas) {
      expect(deployments.map((d) => d.metadata.name)).toContain(hpa.spec.scaleTargetRef.name);
    }
    for (const monitor of ofKind<ServiceMonitor>(objects, 'ServiceMonitor')) {
      const selected = services.filter((s) => selects(monitor.spec.selector, s.metadata.labels ?? {}));
      expect({ at: monitor.metadata.name, services: selected.length }).toEqual({
        at: monitor.metadata.name,
        services: 1,
      });
      expect(selected[0].spec.ports.map((port) => port.name)).toContain(monitor.spec.endpoints[0].port);
    }
  });
});

describe('every render, read against the Kubernetes API types', () => {
  it('has no field its object type lacks (what kubectl --validate=strict refuses)', () => {
    const objects = RENDERS.flatMap(({ input }) => renderChart(input).objects);
    expect(unknownFields(objects)).toEqual([]);
  }, 180_000); // the TypeScript compiler reads the models' types: seconds on a loaded machine
});

describe('the chart rendered with examples/one-mirror.yaml', () => {
  const { objects } = renderChart({ valuesFiles: ['deploy/helm/router/examples/one-mirror.yaml'] });
  const deployments = ofKind<Workload>(objects, 'Deployment');

  it("runs one mirror app, and the gateway gets that mirror's URL only", () => {
    const mirrors = deployments.map(componentOf).filter((name) => MIRROR_APP_NAMES.includes(name));
    expect(mirrors).toEqual([MIRROR_APP_NAMES[0]]);
    const gateway = deployments.find((deployment) => componentOf(deployment) === 'edge-gateway') as Workload;
    const urls = (gateway.spec.template.spec.containers[0].env ?? [])
      .map((variable) => variable.name)
      .filter((name) => /^MIRROR_VENDOR_[A-Z]_URL$/.test(name));
    expect(urls).toEqual([`${MIRROR_APP_NAMES[0].toUpperCase().replace(/-/g, '_')}_URL`]);
  });
});

describe('the chart with the default values', () => {
  it('renders a Deployment, a Service and a NetworkPolicy per enabled app, and the migration hook', () => {
    const { objects } = renderChart();
    const count = (kind: string): number => ofKind(objects, kind).length;
    const apps = 5 + MIRROR_APP_NAMES.length; // the six of `apps` less the simulator, and the mirrors
    expect({
      Deployment: count('Deployment'),
      Service: count('Service'),
      NetworkPolicy: count('NetworkPolicy'),
      Job: count('Job'),
      ConfigMap: count('ConfigMap'),
      Secret: count('Secret'),
    }).toEqual({ Deployment: apps, Service: apps, NetworkPolicy: apps, Job: 1, ConfigMap: 1, Secret: 0 });
  });

  it('turns the simulator on with one value, and the migration off with another', () => {
    expect(ofKind(renderChart({ set: ['apps.vendor-sim.enabled=true'] }).objects, 'Deployment')).toHaveLength(
      6 + MIRROR_APP_NAMES.length,
    );
    expect(ofKind(renderChart({ set: ['migration.enabled=false'] }).objects, 'Job')).toHaveLength(0);
  });

  it('leaves a fixed replica count out of a Deployment that an autoscaler sizes', () => {
    const { objects } = renderChart({ set: ['apps.native-api.autoscaling.enabled=true'] });
    const api = ofKind<Workload>(objects, 'Deployment').find(
      (d) => componentOf(d) === 'native-api',
    ) as Workload;
    expect(api.spec.replicas).toBeUndefined();
    expect(
      ofKind<Hpa>(objects, 'HorizontalPodAutoscaler').map((hpa) => hpa.spec.scaleTargetRef.name),
    ).toEqual([api.metadata.name]);
  });

  it('lets an app turn off what the chart turns on for all (a false that Sprig merges would drop)', () => {
    const { objects } = renderChart({
      set: ['autoscaling.enabled=true', 'apps.dashboard.autoscaling.enabled=false'],
    });
    const scaled = ofKind<Hpa>(objects, 'HorizontalPodAutoscaler').map((hpa) => hpa.spec.scaleTargetRef.name);
    expect(scaled).toContain('rel-router-native-api');
    expect(scaled).not.toContain('rel-router-dashboard');
  });
});

describe('the monitoring objects of examples/production.yaml', () => {
  const { objects } = renderChart({ valuesFiles: ['deploy/helm/router/examples/production.yaml'] });

  it('ship the Grafana dashboard as it is in the chart, labelled for a Grafana sidecar', () => {
    const configMap = objects.find(
      (object) => object.kind === 'ConfigMap' && object.metadata.name.endsWith('-grafana-dashboard'),
    ) as (K8sObject & { data: Record<string, string> }) | undefined;
    expect(configMap?.metadata.labels?.grafana_dashboard).toBe('1');
    const shipped = readFileSync(join(CHART_DIR, 'dashboards', 'router.json'), 'utf8');
    expect(configMap?.data['router.json']).toBe(shipped.trimEnd());
    expect(JSON.parse(configMap?.data['router.json'] ?? '{}')).toMatchObject({ uid: 'router-overview' });
  });

  it('give the alert rules with the thresholds of the values', () => {
    const rule = objects.find((object) => object.kind === 'PrometheusRule') as
      (K8sObject & { spec: { groups: { rules: { alert: string; expr: string }[] }[] } }) | undefined;
    const rules = rule?.spec.groups.flatMap((group) => group.rules) ?? [];
    expect(rules.map((r) => r.alert)).toEqual([
      'RouterSurfaceErrorRatio',
      'RouterVendorErrorRatio',
      'RouterFirstAudioSlow',
      'RouterCacheHitRatioFalling',
      'RouterNatsDisconnected',
      'RouterDatabaseUnavailable',
      'RouterWorkerWithoutLease',
    ]);
    // production.yaml sets errorRatio 0.02 and firstAudioP99Seconds 1.5.
    expect(rules[0].expr).toContain('> 0.02');
    expect(rules[2].expr).toContain('> 1.5');
  });
});

describe('docs/operations.md, "Objects the chart renders"', () => {
  const docs = readFileSync(join(CHART_DIR, '..', '..', '..', 'docs', 'operations.md'), 'utf8');
  const section = docs.slice(docs.indexOf('### Objects the chart renders'), docs.indexOf('### Scaling'));
  /** The table's rows as (kind, name pattern, purpose). */
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map(([, kind, name, purpose]) => ({
      kind: kind.replace(/`/g, ''),
      name: name.replace(/`/g, ''),
      purpose,
    }));

  it.each(RENDERS)('lists every object rendered with $label, with what it is for', ({ input }) => {
    const { objects } = renderChart(input);
    const apps = objects
      .filter((object) => object.kind === 'Deployment')
      .map((object) => (object as Workload).spec.template.metadata.labels[COMPONENT]);
    // rel-router-native-api -> <release>-<app>; rel-router-edge-gateway-metrics -> <release>-<app>-metrics; a
    // row may also name one app's object as it is (the Ingress, <release>-edge-gateway).
    const listed = (kind: string, name: string): boolean =>
      rows.some((row) => row.kind === kind && row.name === name && row.purpose !== '');
    const unlisted = objects
      .map((object) => ({
        kind: object.kind,
        name: object.metadata.name.replace(/^rel-router/, '<release>'),
      }))
      .filter(({ kind, name }) => {
        if (listed(kind, name)) return false;
        const app = apps.find((a) => name === `<release>-${a}` || name.startsWith(`<release>-${a}-`));
        return !(app && listed(kind, name.replace(`<release>-${app}`, '<release>-<app>')));
      });
    expect(unlisted).toEqual([]);
  });
});

describe('values the chart refuses, through helm itself', () => {
  // Each names the rule it breaks; helm must refuse the render and say where.
  const refusals: { label: string; set: string[]; says: string }[] = [
    { label: 'a misspelt key', set: ['apps.native-api.replica=2'], says: "additional properties 'replica'" },
    {
      label: 'a negative replica count',
      set: ['apps.edge-gateway.replicas=-1'],
      says: '/apps/edge-gateway/replicas',
    },
    {
      label: 'a NetworkPolicy CIDR that is not one',
      set: ['networkPolicy.egress.nats.cidrs[0]=10.0.0.300/8'],
      says: '/networkPolicy/egress/nats/cidrs/0',
    },
    { label: 'a port out of range', set: ['apps.edge-gateway.port=70000'], says: '/apps/edge-gateway/port' },
    {
      label: 'a grace period not above the drain time',
      set: ['apps.cache-service.terminationGracePeriodSeconds=20'],
      says: 'must be above its drain time',
    },
    {
      label: 'an autoscaler whose minimum is above its maximum',
      set: ['apps.native-api.autoscaling.enabled=true', 'apps.native-api.autoscaling.minReplicas=12'],
      says: 'minReplicas (12) is above maxReplicas (10)',
    },
    {
      label: 'the admin API off loopback without a token',
      set: ['apps.native-api.env.ADMIN_HOST=0.0.0.0'],
      says: 'ADMIN_TOKEN',
    },
    { label: 'a mirror name that is not one', set: ['mirrors.vendor-c.replicas=2'], says: 'mirror-vendor-' },
    {
      label: 'a mirror the registry does not have',
      set: ['mirrors.mirror-vendor-z.replicas=2'],
      says: '/mirrors/mirror-vendor-z',
    },
    { label: 'an HTTPRoute with no parent Gateway', set: ['httpRoute.enabled=true'], says: 'parentRefs' },
  ];

  it.each(refusals)('refuses $label', ({ set, says }) => {
    const run = templateChart({ set });
    expect({ status: run.status === 0 ? 'rendered' : 'refused', says: run.stderr.includes(says) }).toEqual({
      status: 'refused',
      says: true,
    });
  });
});
