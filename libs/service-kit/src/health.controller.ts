import { Controller, Get, Header, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Health } from '@router/observability';
import { HEALTH } from './tokens';
import { Public } from './identity.guard';

/** Liveness, readiness (503 naming what is down) and Prometheus metrics, on every app's port. */
@ApiExcludeController()
@Controller()
@Public()
export class HealthController {
  constructor(@Inject(HEALTH) private readonly health: Health) {}

  @Get('healthz')
  @HttpCode(200)
  healthz(): { status: 'ok'; service: string } {
    return { status: 'ok', service: this.health.service };
  }

  @Get('readyz')
  async readyz(@Res() res: Response): Promise<void> {
    const report = await this.health.readiness();
    const failing = Object.entries(report.checks)
      .filter(([, state]) => state === 'failing')
      .map(([name]) => name);
    res
      .status(report.ready ? 200 : 503)
      .json(
        report.ready
          ? { status: 'ready', checks: report.checks }
          : { status: 'unavailable', failing, checks: report.checks },
      );
  }

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metrics(@Res() res: Response): Promise<void> {
    res.type(this.health.metrics.contentType).send(await this.health.metrics.metrics());
  }
}
