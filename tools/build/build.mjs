// Compiles every app, lib and tool to dist/ with swc (path aliases rewritten to relative imports), keeps
// the source tree's layout and gives each app the entry point `dist/apps/<app>/main.js`.
// Type checking is separate (`npm run typecheck`): this only transpiles, in a few seconds.
import { transformFile } from '@swc/core';
import { build as viteBuild } from 'vite';
import ts from 'typescript';
import { readFileSync, readdirSync, mkdirSync, writeFileSync, cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'dist');
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
const { paths } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions;
const isTest = (f) => /\.(spec|int-spec|e2e-spec)\.ts$/.test(f) || f.includes(`${'/'}test${'/'}`);
/** The dashboard's front end: built for the browser by Vite below, not for Node. */
const web = join(root, 'apps/dashboard/web');

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && full !== web) yield* sources(full);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !isTest(full)) {
      yield full;
    }
  }
}

rmSync(out, { recursive: true, force: true });
const files = ['apps', 'libs', 'tools'].flatMap((d) => [...sources(join(root, d))]);
await Promise.all(
  files.map(async (file) => {
    const { code, map } = await transformFile(file, {
      ...swcrc,
      swcrc: false,
      filename: file,
      sourceFileName: relative(out, file),
      jsc: { ...swcrc.jsc, baseUrl: root, paths },
    });
    const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
    if (map) writeFileSync(`${target}.map`, map);
  }),
);

// The published packages: the client and the two voice-agent integrations on it. Each is compiled again on
// its own, its imports of `@speech-router/*` kept as package imports, into a folder `npm pack` makes the
// package of: CommonJS (`src/*.js`) and ES modules (`esm/*.mjs`, so an ES-module app shares the framework's
// own ES build instead of loading a second copy of it), type declarations for both, package.json and README.
// Their code keeps to isolated declarations (each lib's tsconfig.lib.json), so each file's declarations come
// without type checking.
const PACKAGES = [
  { lib: 'libs/client', out: 'dist/libs/client' },
  { lib: 'libs/livekit-plugin', out: 'dist/packages/livekit-plugin' },
  { lib: 'libs/ai-sdk-provider', out: 'dist/packages/ai-sdk-provider' },
];
const relativeSpecifier = /(from |import\()(['"])(\.\.?\/[^'"]+)\2/g;
await Promise.all(PACKAGES.map(({ lib, out: pkgOut }) => buildPackage(join(root, lib), join(root, pkgOut))));

async function buildPackage(libDir, pkgDir) {
  for (const file of sources(join(libDir, 'src'))) {
    const name = relative(join(libDir, 'src'), file).replace(/\.ts$/, '');
    const cjs = join(pkgDir, 'src', `${name}.js`);
    const esm = join(pkgDir, 'esm', `${name}.mjs`);
    const options = {
      ...swcrc,
      swcrc: false,
      sourceMaps: false,
      filename: file,
      jsc: { ...swcrc.jsc, baseUrl: libDir },
    };
    const [commonJs, esModule] = await Promise.all([
      transformFile(file, options),
      transformFile(file, {
        ...options,
        module: { type: 'es6', resolveFully: true, outFileExtension: 'mjs' },
      }),
    ]);
    if (/["']@router\//.test(commonJs.code))
      throw new Error(`${relative(root, file)}: a published package imports @router/*`);
    const { outputText, diagnostics } = ts.transpileDeclaration(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { isolatedDeclarations: true, strict: true, target: ts.ScriptTarget.ES2022 },
      reportDiagnostics: true,
    });
    if (diagnostics?.length) {
      const messages = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      throw new Error(`${relative(root, file)}: no declarations: ${messages.join('; ')}`);
    }
    mkdirSync(dirname(cjs), { recursive: true });
    mkdirSync(dirname(esm), { recursive: true });
    writeFileSync(cjs, commonJs.code);
    writeFileSync(esm, esModule.code);
    writeFileSync(cjs.replace(/\.js$/, '.d.ts'), outputText);
    // The ES declarations name their siblings with the extension ES-module resolution needs.
    writeFileSync(esm.replace(/\.mjs$/, '.d.mts'), outputText.replace(relativeSpecifier, '$1$2$3.mjs$2'));
  }
  for (const asset of ['package.json', 'README.md']) cpSync(join(libDir, asset), join(pkgDir, asset));
}

// Assets read at run time.
cpSync(join(root, 'libs/db/prisma'), join(out, 'libs/db/prisma'), { recursive: true });

// The dashboard's single-page front end, served by the dashboard app from dist/apps/dashboard/web.
await viteBuild({
  root: web,
  base: '/dashboard/',
  configFile: false,
  logLevel: 'warn',
  build: { outDir: join(out, 'apps/dashboard/web'), emptyOutDir: true, target: 'es2022', sourcemap: false },
});

for (const base of ['apps', 'tools']) {
  for (const app of readdirSync(join(root, base))) {
    if (existsSync(join(root, base, app, 'src/main.ts'))) {
      writeFileSync(join(out, base, app, 'main.js'), "'use strict';\nrequire('./src/main.js');\n");
    }
  }
}
console.log(`built ${files.length} files into dist/`);
