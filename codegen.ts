// Typed documents for the GraphQL operations the tests (and clients) use:
// `npm run codegen` after changing schema.graphql or an operation.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/**/*.ts', '!test/gql/**'],
  generates: {
    'test/gql/': {
      preset: 'client',
      config: {
        importExtension: '.ts',
        useTypeImports: true,
        scalars: { DateTime: 'string' },
        enumsAsTypes: true,
      },
      presetConfig: { fragmentMasking: false },
    },
  },
};

export default config;
