import { speedLayers } from './speedLayers.js';

/**
 * The maps drift keeps derived values in for the life of a process (compiled CEL and validators,
 * written skeletons and outlines, built XRs, resolved roles, encoded requests, read answers, …):
 * Maps and WeakMaps that forget everything while the `memo` speed layer is off
 * (util/speedLayers.ts), so the bench can tell what the group saves. A map whose entry is the only
 * record of something (not a value that could be computed again) is a plain Map, not one of these.
 */
export class MemoMap<K, V> extends Map<K, V> {
  override get(key: K): V | undefined {
    return speedLayers().memo ? super.get(key) : undefined;
  }

  override has(key: K): boolean {
    return speedLayers().memo && super.has(key);
  }

  override set(key: K, value: V): this {
    if (speedLayers().memo) super.set(key, value);
    return this;
  }
}

export class MemoWeakMap<K extends WeakKey, V> extends WeakMap<K, V> {
  override get(key: K): V | undefined {
    return speedLayers().memo ? super.get(key) : undefined;
  }

  override has(key: K): boolean {
    return speedLayers().memo && super.has(key);
  }

  override set(key: K, value: V): this {
    if (speedLayers().memo) super.set(key, value);
    return this;
  }
}
