import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { Anonymous } from '@router/service-kit';
import { WEB_ROOT } from '../tokens';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Scripts, styles and data from this origin only; no page may frame the dashboard. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/**
 * The single-page front end (its Vite build, apps/dashboard/web) under `/dashboard/`: a file of the build as it
 * is (hashed assets cached for good), and `index.html` for every page's path, which the front end routes.
 */
@ApiExcludeController()
@Controller('dashboard')
@Anonymous()
export class PagesController {
  constructor(@Inject(WEB_ROOT) private readonly root: string) {}

  /** `/dashboard` moves to `/dashboard/` (relative links need the slash); Express routes both here. */
  @Get()
  async home(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (req.path.endsWith('/')) return this.page(req, res);
    res.redirect(308, '/dashboard/');
  }

  @Get('{*path}')
  async page(@Req() req: Request, @Res() res: Response): Promise<void> {
    const relative = normalize(decodeURIComponent(req.path.slice('/dashboard/'.length)));
    const file = join(this.root, relative);
    const inside = file.startsWith(this.root + sep) && !relative.split(sep).includes('..');
    const found = inside && relative !== '.' && (await stat(file).catch(() => null))?.isFile();
    if (!found && extname(relative) !== '') {
      res.status(404).set(SECURITY_HEADERS).type('text/plain').send('Not found');
      return;
    }
    const path = found ? file : join(this.root, 'index.html');
    const body = await readFile(path).catch(() => null);
    if (body === null) {
      res.status(503).type('text/plain').send('The dashboard is not built (node tools/build/build.mjs).');
      return;
    }
    res
      .status(200)
      .set(SECURITY_HEADERS)
      .set('content-type', TYPES[extname(path)] ?? 'application/octet-stream')
      .set(
        'cache-control',
        relative.startsWith(`assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      )
      .send(body);
  }
}
