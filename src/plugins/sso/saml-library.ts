/**
 * The SAML libraries, loaded on first use: an instance with no SAML connection never loads them,
 * and an app that installs none gets a clear error naming the package at its first SAML step.
 * `@node-saml/node-saml` is an optional peer dependency (it brings `@xmldom/xmldom`).
 */
import { AuthError } from 'latchkey/server'

const loaded = new Map<string, Promise<unknown>>()

export function loadSamlLibrary<T>(name: string, load: () => Promise<T>): Promise<T> {
  let held = loaded.get(name) as Promise<T> | undefined
  if (!held) {
    held = load().catch((error: unknown) => {
      loaded.delete(name)
      throw new AuthError('Configuration', `sso: SAML connections need the package ${name === '@xmldom/xmldom' ? '@node-saml/node-saml (which brings @xmldom/xmldom)' : name}: npm install @node-saml/node-saml (${(error as Error).message})`, { status: 500 })
    })
    loaded.set(name, held)
  }
  return held
}

export const nodeSaml = () => loadSamlLibrary('@node-saml/node-saml', () => import('@node-saml/node-saml'))
