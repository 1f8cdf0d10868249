import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
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

/** Types worth compressing (icons and images are compressed already, or barely shrink). */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt']);

interface Served {
  body: Buffer;
  type: string;
  /** Brotli and gzip forms of a compressible file, made on first request (the build never changes while up). */
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * The single-page front end (its Vite build, apps/dashboard/web) under `/dashboard/`: a file of the build as it
 * is (hashed assets cached for good), and `index.html` for every page's path, which the front end routes; text
 * compressed (Brotli or gzip, as the browser accepts). Also the site's `/favicon.ico`, from the build's root.
 */
@ApiExcludeController()
@Controller()
@Anonymous()
export class PagesController {
  private readonly files = new Map<string, Promise<Served | null>>();

  constructor(@Inject(WEB_ROOT) private readonly root: string) {}

  /** `/dashboard` moves to `/dashboard/` (relative links need the slash); Express routes both here. */
  @Get('dashboard')
  async home(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (req.path.endsWith('/')) return this.page(req, res);
    res.redirect(308, '/dashboard/');
  }

  @Get('favicon.ico')
  async icon(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.send(req, res, 'favicon.ico', 'public, max-age=86400');
  }

  @Get('dashboard/{*path}')
  async page(@Req() req: Request, @Res() res: Response): Promise<void> {
    const relative = normalize(decodeURIComponent(req.path.slice('/dashboard/'.length)));
    const file = join(this.root, relative);
    const inside = file.startsWith(this.root + sep) && !relative.split(sep).includes('..');
    const found = inside && relative !== '.' && (await stat(file).catch(() => null))?.isFile();
    if (!found && extname(relative) !== '') {
      res.status(404).set(SECURITY_HEADERS).type('text/plain').send('Not found');
      return;
    }
    await this.send(
      req,
      res,
      found ? relative : 'index.html',
      relative.startsWith(`assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
  }

  private async send(req: Request, res: Response, relative: string, cacheControl: string): Promise<void> {
    const served = await this.read(relative);
    if (served === null) {
      res.status(503).type('text/plain').send('The dashboard is not built (node tools/build/build.mjs).');
      return;
    }
    const encoding = served.br ? req.acceptsEncodings('br', 'gzip', 'identity') : 'identity';
    const body = encoding === 'br' ? served.br : encoding === 'gzip' ? served.gzip : undefined;
    res
      .status(200)
      .set(SECURITY_HEADERS)
      .set('content-type', served.type)
      .set('cache-control', cacheControl)
      .set('vary', 'Accept-Encoding');
    if (body) res.set('content-encoding', encoding as string);
    res.send(body ?? served.body);
  }

  /** A file of the build, read (and compressed) once; null when the build is missing. */
  private read(relative: string): Promise<Served | null> {
    let served = this.files.get(relative);
    if (!served) {
      served = readFile(join(this.root, relative)).then(
        (body): Served => {
          const ext = extname(relative);
          const type = TYPES[ext] ?? 'application/octet-stream';
          if (!COMPRESSIBLE.has(ext)) return { body, type };
          return { body, type, br: brotliCompressSync(body), gzip: gzipSync(body, { level: 9 }) };
        },
        () => null,
      );
      // A missing build is looked for again next time (it may be built meanwhile).
      void served.then((found) => found ?? this.files.delete(relative));
      this.files.set(relative, served);
    }
    return served;
  }
}
