/**
 * What a feature brings to a `Latchkey` instance (its types, declared in types.ts): routes under
 * basePath, and, for a way to sign in, the hooks the shared routes (/signin, /callback, the sign-in
 * page, the last-way rule, the first proof of an address) call for a provider of its kind. Adding
 * a way to sign in is a folder with one `LatchkeyPlugin` and a line in features/index.ts; nothing outside
 * it tests a provider's type.
 */
import type { LatchkeyPlugin, ResolvedConfig, SignInMethod } from './types.js'

export type { Action, CorsRule, LatchkeyPlugin, Route, SignInMethod } from './types.js'

/** The sign-in method that runs this provider's kind; none where the instance has no feature for it. */
export function methodOf(config: Pick<ResolvedConfig, 'methods'>, provider: { type: string; kind?: string }): SignInMethod | undefined {
  return config.methods.get(provider.kind ?? provider.type)
}

/** `LatchkeyPlugin.uses` for a way to sign in: used where some provider is of one of `kinds` (its kind, else its type). */
export function usedByProvidersOf(...kinds: string[]): NonNullable<LatchkeyPlugin['uses']> {
  return (_, providers) => [...providers.values()].some((p) => kinds.includes((p as { kind?: string }).kind ?? p.type))
}
