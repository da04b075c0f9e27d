/**
 * Values derived from an object (plus a variant key), kept as long as the
 * object lives: what the streaming path derives from a turn's tool specs.
 */
export class PerObject<T> {
  private readonly byOwner = new WeakMap<object, Map<string, T>>();

  get(owner: object, variant: string, make: () => T): T {
    let variants = this.byOwner.get(owner);
    if (variants === undefined) {
      variants = new Map();
      this.byOwner.set(owner, variants);
    }
    let value = variants.get(variant);
    if (value === undefined) {
      value = make();
      variants.set(variant, value);
    }
    return value;
  }
}
