// Typed documents for the GraphQL operations the tests, the dashboard and the CLI use:
// `npm run codegen` after changing schema.graphql or an operation.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  generates: {
    'test/gql/': {
      documents: ['test/**/*.ts', '!test/gql/**'],
      preset: 'client',
      config: {
        importExtension: '.ts',
        useTypeImports: true,
        scalars: { DateTime: 'string' },
        enumsAsTypes: true,
      },
      presetConfig: { fragmentMasking: false },
    },
    // The dashboard (web/): its own operations, so that its names never collide with the tests'.
    'web/src/gql/': {
      documents: ['web/src/**/*.{ts,tsx}', '!web/src/gql/**'],
      preset: 'client',
      config: {
        useTypeImports: true,
        scalars: { DateTime: 'string', JSON: 'unknown' },
        enumsAsTypes: true,
      },
      presetConfig: { fragmentMasking: false },
    },
    // The CLI's client (src/client/): documents as strings, so the program needs no GraphQL
    // parser at run time; it may be talking to a remote Hookline of this same schema.
    'src/client/gql/': {
      documents: ['src/client/**/*.ts', '!src/client/gql/**'],
      preset: 'client',
      config: {
        importExtension: '.ts',
        useTypeImports: true,
        documentMode: 'string',
        scalars: { DateTime: 'string', JSON: 'unknown' },
        enumsAsTypes: true,
      },
      presetConfig: { fragmentMasking: false },
    },
  },
};

export default config;
