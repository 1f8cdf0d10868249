import { parseDockerfile } from './dockerfile-stages';

describe('parseDockerfile', () => {
  it('splits stages, joins continuations and drops comments', () => {
    const parsed = parseDockerfile(
      [
        '# syntax=docker/dockerfile:1',
        'ARG BASE=node:20',
        'FROM ${BASE} AS build',
        'RUN npm ci \\',
        '  # a comment inside a continued line',
        ' && node build.mjs',
        '',
        'from --platform=linux/amd64 ${BASE}',
        'copy --from=build /src/dist ./dist',
        'CMD ["node", "main.js"]',
      ].join('\n'),
    );
    expect(parsed.preamble).toEqual([{ keyword: 'ARG', args: 'BASE=node:20' }]);
    expect(parsed.stages).toEqual([
      {
        from: '${BASE}',
        name: 'build',
        instructions: [{ keyword: 'RUN', args: 'npm ci && node build.mjs' }],
      },
      {
        from: '${BASE}',
        name: undefined,
        instructions: [
          { keyword: 'COPY', args: '--from=build /src/dist ./dist' },
          { keyword: 'CMD', args: '["node", "main.js"]' },
        ],
      },
    ]);
  });

  it('refuses a file that ends inside a continued line', () => {
    expect(() => parseDockerfile('FROM node:20\nRUN echo \\')).toThrow('continued line');
  });
});
