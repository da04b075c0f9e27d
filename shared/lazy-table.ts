/**
 * A table whose entries are built on first access, then kept. The API
 * contract's request and event tables hold ~150 zod schemas; building them all
 * when the module loads was a large share of the renderer's start-up script
 * time, while a page load touches a dozen methods. Every entry is still a
 * real schema: whoever reads `table[key]` gets the same object each time.
 */
export function lazyTable<D extends Record<string, () => unknown>>(defs: D): { readonly [K in keyof D]: ReturnType<D[K]> } {
  const table = {} as { [K in keyof D]: ReturnType<D[K]> };
  for (const key of Object.keys(defs) as Array<keyof D & string>) {
    Object.defineProperty(table, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = defs[key]() as ReturnType<D[typeof key]>;
        Object.defineProperty(table, key, { value, enumerable: true, configurable: false, writable: false });
        return value;
      },
    });
  }
  return table;
}
