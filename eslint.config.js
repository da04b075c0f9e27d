// ESLint: typescript-eslint's recommended type-aware rules for the whole tree,
// plus the React hooks rules for the renderer. `npm run lint` runs it with the
// formatter check, the layering check and the documentation citations check.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "out/",
      "dist/",
      "release/",
      "test-results/",
      "playwright-report/",
      "e2e/artifacts/",
      "bench/.tmp/",
      ".tmp/",
      "**/*.js",
      "**/*.mjs",
      "**/*.cjs",
      "electron/core/review/html-replay.generated.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_`-prefixed names are deliberately unused (placeholders in signatures and destructuring).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["renderer/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Zustand selectors hand out the store's actions, which are closures that never use `this`.
      "@typescript-eslint/unbound-method": "off",
      // A React Compiler diagnostic (TanStack Virtual's API cannot be memoised); we do not run the compiler.
      "react-hooks/incompatible-library": "off",
    },
  },
  {
    files: ["test/**/*.ts", "e2e/**/*.ts", "bench/**/*.ts"],
    rules: {
      // Stubs implement async interfaces without awaiting anything.
      "@typescript-eslint/require-await": "off",
      // Vitest's asymmetric matchers (expect.any, expect.stringMatching…) are typed `any`.
      "@typescript-eslint/no-unsafe-assignment": "off",
      // Assertions name methods without calling them (`expect(obj.method).toBeUndefined()`).
      "@typescript-eslint/unbound-method": "off",
    },
  },
);
