import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portIsFree } from './processes';

describe('freePort', () => {
  it('gives free ports below the ephemeral range, each reserved for this process, none twice', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 50; i += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
      expect(await portIsFree(port)).toBe(true);
      // The reservation another test process reads before it takes a port.
      const file = join(tmpdir(), 'router-test-ports', String(port));
      expect(existsSync(file) && readFileSync(file, 'utf8')).toBe(String(process.pid));
    }
  });
});
