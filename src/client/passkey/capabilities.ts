/**
 * What this browser can do with passkeys, from `PublicKeyCredential.getClientCapabilities()`
 * (WebAuthn L3) where it exists; elsewhere the older probes answer what they can
 * (`conditionalGet`, `userVerifyingPlatformAuthenticator`) and the rest reads false. No user-agent sniffing.
 */
export type ClientCapabilities = Partial<Record<string, boolean>>

type Probes = {
  getClientCapabilities?: () => Promise<ClientCapabilities>
  isConditionalMediationAvailable?: () => Promise<boolean>
  isUserVerifyingPlatformAuthenticatorAvailable?: () => Promise<boolean>
}

export async function clientCapabilities(): Promise<ClientCapabilities> {
  const api = globalThis.PublicKeyCredential as unknown as Probes | undefined
  if (!api) return {}
  try {
    if (api.getClientCapabilities) return { ...(await api.getClientCapabilities()) }
  } catch {}
  const ask = (probe?: () => Promise<boolean>) => (probe ? probe.call(api).then((v) => v === true, () => false) : false)
  const [conditionalGet, userVerifyingPlatformAuthenticator] = await Promise.all([ask(api.isConditionalMediationAvailable), ask(api.isUserVerifyingPlatformAuthenticatorAvailable)])
  return { conditionalGet, userVerifyingPlatformAuthenticator }
}
