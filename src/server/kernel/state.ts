/**
 * State a feature keeps for one instance or one request, on the object it belongs to: the
 * resolved configuration (`instanceKey`) or the request's context (`requestKey`). A value lives in
 * the owner's `state` map under its key, so it is typed, shows in a debugger beside the rest of
 * the instance or request, and goes with it; two instances, or two requests, never share one.
 *
 *     const mfaOptions = instanceKey<ResolvedMfa>('mfa options')
 *     mfaOptions.set(resolved, options)      // in the feature's configure()
 *     mfaOptions.get(ctx.config)             // in a route: throws if configure() never set it
 *     mfaOptions.find(ctx.config)            // undefined where the feature may be off
 */
import type { Context, ResolvedConfig, State } from './types.js'

export type { State } from './types.js'

/** A typed slot in the state of an `Owner`; the key object itself is the map's key, so two keys never clash, whatever their names. */
export class StateKey<Owner extends { readonly state: State }, T> {
  /** `name` says what the value is, in errors and in a debugger. */
  constructor(readonly name: string) {}

  /** The value; throws where none was set, which is a bug (a read before the step that sets it). */
  get(owner: Owner): T {
    if (!owner.state.has(this)) throw new Error(`latchkey: ${this.name} was read before it was set`)
    return owner.state.get(this) as T
  }

  /** The value, or undefined where none was set (a feature that is off, a step that has not happened). */
  find(owner: Owner): T | undefined {
    return owner.state.get(this) as T | undefined
  }

  has(owner: Owner): boolean {
    return owner.state.has(this)
  }

  set(owner: Owner, value: T): T {
    owner.state.set(this, value)
    return value
  }

  /** The value, made by `make` and kept on first use. */
  ensure(owner: Owner, make: () => T): T {
    return owner.state.has(this) ? (owner.state.get(this) as T) : this.set(owner, make())
  }
}

/** A value kept per instance, on its resolved configuration: options resolved at start-up, a cache of what they imply. */
export function instanceKey<T>(name: string): StateKey<ResolvedConfig, T> {
  return new StateKey(name)
}

/** A value kept per request, on its context: what one step of the request leaves for a later one. */
export function requestKey<T>(name: string): StateKey<Context, T> {
  return new StateKey(name)
}
