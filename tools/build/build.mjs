// Compiles every app, lib and tool to dist/ with swc (path aliases rewritten to relative imports), keeps
// the source tree's layout and gives each app the entry point `dist/apps/<app>/main.js`.
// Type checking is separate (`npm run typecheck`): this only transpiles, in a few seconds.
import { transformFile } from '@swc/core';
import { readFileSync, readdirSync, mkdirSync, writeFileSync, cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'dist');
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
const { paths } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions;
const isTest = (f) => /\.(spec|int-spec|e2e-spec)\.ts$/.test(f) || f.includes(`${'/'}test${'/'}`);

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* sources(full);
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

// Assets read at run time.
cpSync(join(root, 'libs/db/prisma'), join(out, 'libs/db/prisma'), { recursive: true });

for (const base of ['apps', 'tools']) {
  for (const app of readdirSync(join(root, base))) {
    if (existsSync(join(root, base, app, 'src/main.ts'))) {
      writeFileSync(join(out, base, app, 'main.js'), "'use strict';\nrequire('./src/main.js');\n");
    }
  }
}
console.log(`built ${files.length} files into dist/`);
