import { renderChart } from './helm';
import { unknownFields } from './unknown-fields';

describe('unknownFields', () => {
  const { objects } = renderChart({ valuesFiles: ['deploy/helm/router/examples/production.yaml'] });

  it('names a misspelt field anywhere in an object, and only that', () => {
    const deployment = structuredClone(objects.find((object) => object.kind === 'Deployment'))!;
    const spec = (deployment as any).spec;
    spec.template.spec.containers[0].readinessProbe.httpGet.pth = '/readyz';
    spec.template.spec.topologySpreadConstraint = [];
    expect(unknownFields([deployment])).toEqual([
      `Deployment/${deployment.metadata.name}: spec.template.spec.containers[0].readinessProbe.httpGet.pth`,
      `Deployment/${deployment.metadata.name}: spec.template.spec.topologySpreadConstraint`,
    ]);
  }, 180_000);

  it('takes any key in a map of free keys, and checks a custom resource too', () => {
    const monitor = structuredClone(objects.find((object) => object.kind === 'ServiceMonitor'))!;
    (monitor.metadata.labels as Record<string, string>)['any.example.com/key'] = 'x';
    (monitor as any).spec.endpoints[0].intervall = '30s';
    expect(unknownFields([monitor])).toEqual([
      `ServiceMonitor/${monitor.metadata.name}: spec.endpoints[0].intervall`,
    ]);
  }, 180_000);
});
