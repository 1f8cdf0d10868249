import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const ALL_BUT_APPS = ['type:feature', 'type:data-access', 'type:contract', 'type:util', 'type:vendor'];

/** The module boundaries (tags in each project.json); `allow` names libs importable regardless of tags. */
const moduleBoundaries = (allow) => ({
  enforceBuildableLibDependency: false,
  banTransitiveDependencies: false,
  allow,
  depConstraints: [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ALL_BUT_APPS },
    { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ALL_BUT_APPS },
    {
      sourceTag: 'type:data-access',
      onlyDependOnLibsWithTags: ['type:data-access', 'type:contract', 'type:util'],
    },
    { sourceTag: 'type:vendor', onlyDependOnLibsWithTags: ['type:vendor', 'type:contract', 'type:util'] },
    { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:util'] },
    { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['*'] },
    // The published packages (the client and the voice-agent integrations on it) may import no workspace lib
    // but each other, which they depend on as npm packages.
    { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:client'] },
    // An example uses only what a user installs: the published packages.
    { sourceTag: 'type:example', onlyDependOnLibsWithTags: ['type:client'] },
    { sourceTag: 'scope:edge', onlyDependOnLibsWithTags: ['scope:edge', 'scope:shared'] },
    { sourceTag: 'scope:native', onlyDependOnLibsWithTags: ['scope:native', 'scope:shared'] },
    { sourceTag: 'scope:mirror', onlyDependOnLibsWithTags: ['scope:mirror', 'scope:shared'] },
    { sourceTag: 'scope:synthesis', onlyDependOnLibsWithTags: ['scope:synthesis', 'scope:shared'] },
    // The worker answers takes; what it shares with the requesters lives in shared libs, not in theirs.
    { sourceTag: 'scope:synthesis', notDependOnLibsWithTags: ['role:requester'] },
    // The service kit serves every app alike; a type it shares with the vendors lives in contracts.
    { sourceTag: 'role:service-kit', notDependOnLibsWithTags: ['type:vendor'] },
    { sourceTag: 'scope:cache', onlyDependOnLibsWithTags: ['scope:cache', 'scope:shared'] },
    { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:dashboard', 'scope:shared'] },
    { sourceTag: 'scope:sim', onlyDependOnLibsWithTags: ['scope:sim', 'scope:shared'] },
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['scope:shared', 'scope:tools'] },
    { sourceTag: 'scope:standalone', onlyDependOnLibsWithTags: ['*'] },
    { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['*'] },
  ],
});

export default tseslint.config(
  {
    ignores: ['**/dist', '**/node_modules', '**/coverage', '.nx', 'tmp', '**/*.js', '**/*.mjs', '**/*.cjs'],
  },
  // The published packages' consumer: compiled against the installed tarballs in its own project
  // (tools/packages-check/check.sh), where the packages resolve; here they do not.
  { ignores: ['tools/packages-check/consumer'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', moduleBoundaries([])],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A secret is compared in one place, in constant time whatever its length: `sameSecret` of @router/auth.
      'no-restricted-imports': [
        'error',
        ...['node:crypto', 'crypto'].map((name) => ({
          name,
          importNames: ['timingSafeEqual'],
          message: "Compare secrets with sameSecret from '@router/auth'.",
        })),
      ],
    },
  },
  { files: ['libs/auth/src/same-secret.ts'], rules: { 'no-restricted-imports': 'off' } },
  // The dashboard's front end reads GET /v1/models and /v1/provider-keys as any client does: it imports the
  // published client's wire types (libs/client/src/api.types.ts, its tsconfig's `paths`), type-only, which
  // Vite erases; a value imported from it would not resolve in Vite's build.
  {
    files: ['apps/dashboard/web/src/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', moduleBoundaries(['@router/client'])] },
  },
  {
    files: [
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
      'libs/testing/**/*.ts',
      'libs/test-sse/**/*.ts',
      '**/test/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      // Tests of any project may use the test kit, the simulated vendors and the published client.
      '@nx/enforce-module-boundaries': [
        'error',
        moduleBoundaries([
          '@router/testing',
          '@router/spec-facts',
          '@router/test-sse',
          '@router/vendor-sim',
          '@router/client',
        ]),
      ],
    },
  },
);
