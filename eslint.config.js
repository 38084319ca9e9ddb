// ESLint flat config. Not type-aware on purpose (fast: no TypeScript program is built).
// The architecture of lib/ is stated once, in `floors` below; everything else is pragmatic hygiene.
import path from 'node:path';

import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The floors of lib/, top to bottom. A file may import from its own floor or any floor BELOW it, never from a
 * higher one (type-only imports included). A folder entry covers every file under it, present or future.
 * This array is the single statement of the plan: move a folder by moving its entry.
 */
export const floors = [
  {
    name: 'F0 (module)',
    paths: [
      'lib/index.ts',
      'lib/mcp.module.ts',
      'lib/mcp.module-definition.ts',
      'lib/mcp.controller.ts',
      'lib/mount-on-host.ts',
      'lib/mount-route.ts',
      'lib/post-chain.ts',
      'lib/checked-definitions.ts',
    ],
  },
  { name: 'F1 (methods)', paths: ['lib/methods'] },
  {
    name: 'F2 (mrtr, context, tools, resources, prompts, completion, subscriptions, tasks)',
    paths: ['lib/mrtr', 'lib/context', 'lib/tools', 'lib/resources', 'lib/prompts', 'lib/completion', 'lib/subscriptions', 'lib/tasks'],
  },
  { name: 'F3 (response)', paths: ['lib/response'] },
  { name: 'F4 (protocol)', paths: ['lib/protocol'] },
  { name: 'F5 (wire)', paths: ['lib/wire'] },
  { name: 'F6 (options, validation, telemetry, contracts)', paths: ['lib/options', 'lib/validation', 'lib/telemetry', 'lib/contracts'] },
  { name: 'F7 (errors, util, constants, schema)', paths: ['lib/errors', 'lib/util', 'lib/mcp.constants.ts', 'lib/schema'] },
];

// One zone per (floor, higher floor) pair, so that every message names both floors.
const floorZones = floors.flatMap((floor, below) =>
  floors.slice(0, below).map((higher) => ({
    target: floor.paths,
    from: higher.paths,
    message: `Floor rule: ${floor.name} may not import from ${higher.name}, a higher floor (see floors in eslint.config.js).`,
  })),
);

// A file under lib/ on no floor would escape the floor rule: report it.
const root = import.meta.dirname;
const floorPaths = floors.flatMap((floor) => floor.paths).map((p) => path.join(root, p));
const onAFloor = (file) => floorPaths.some((p) => file === p || file.startsWith(p + path.sep));
const floorsPlugin = {
  rules: {
    'on-a-floor': {
      meta: { type: 'problem', schema: [], messages: { none: '{{file}} is on no floor: add it to floors in eslint.config.js.' } },
      create: (context) => ({
        Program(node) {
          const file = context.physicalFilename;
          if (!onAFloor(file)) context.report({ node, messageId: 'none', data: { file: path.relative(root, file) } });
        },
      }),
    },
  },
};

export default defineConfig(
  {
    ignores: ['**/node_modules/**', 'dist*/**', 'coverage/**', 'test/fixtures/**', 'lib/schema/**', 'docs/**'],
  },
  {
    files: ['**/*.{ts,js,mjs,cjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    settings: {
      // import-x follows (parses) only files with these extensions, with this parser: needed by no-cycle.
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json', alwaysTryTypes: true })],
    },
    rules: {
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', ['parent', 'sibling', 'index']],
          'newlines-between': 'always',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // A class and an interface of the same name are merged deliberately (`McpRequestLogger`: one method per log
      // level, typed by the interface, built in the class); so are an interface and a const (`McpAuth` token).
      '@typescript-eslint/no-unsafe-declaration-merging': 'off',
      // ... and the merged interface may have no members of its own beyond the one type it extends.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Control characters in a regex are the point where they appear: scrubbing them (util/bounded) and its tests.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['lib/**/*.ts'],
    plugins: { floors: floorsPlugin },
    rules: {
      'floors/on-a-floor': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: floorZones }],
      // Runtime cycles only: a type-only import is erased, so import-x does not count it in a cycle.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read loosely typed wire answers (`res.body.result as any`) and build partial fakes.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The bench app imports the package by its name, as a consumer does; that name resolves into dist/ (once built),
    // which counts as an external module here, so the import order is the same whether dist/ exists or not.
    files: ['bench/**'],
    settings: { 'import-x/external-module-folders': ['node_modules', 'dist'] },
  },
  // Last: switch off every rule that only concerns formatting (Prettier owns that).
  prettier,
);
