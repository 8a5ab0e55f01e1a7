/**
 * A button that calls the Demo IdP's API through the demo server (/api/idp-profile), which uses
 * the user's provider token: `auth.getAccessToken` refreshes it there when it is about to expire.
 * Shown only while the user has a Demo IdP account: without one there is no token to call with.
 * The profile's `<latchkey-accounts>` keeps that list current through links and unlinks, so the
 * button follows it.
 */
export function mountIdpCall(root: HTMLElement, profile: HTMLElement): void {
  root.innerHTML = `<button type="button" class="idp-call">Call the Demo IdP's API</button><p class="muted small idp-result" role="status"></p>`
  const button = root.querySelector('button')!
  const result = root.querySelector<HTMLElement>('.idp-result')!
  let watched: ShadowRoot | undefined
  const accounts = new MutationObserver(() => follow())
  const follow = () => {
    // The profile draws its sections once it knows the server's features; the accounts' list is in their own shadow root.
    const list = profile.shadowRoot?.querySelector('latchkey-accounts')?.shadowRoot ?? undefined
    if (list && list !== watched) accounts.observe((watched = list), { childList: true, subtree: true })
    root.hidden = !list?.querySelector('[part~="account"][data-provider="demo-idp"]')
    if (root.hidden) result.textContent = ''
  }
  root.hidden = true
  // <latchkey-profile> is defined once its code has loaded (it loads only where a page has one).
  void customElements.whenDefined('latchkey-profile').then(() => {
    new MutationObserver(follow).observe(profile.shadowRoot!, { childList: true, subtree: true })
    follow()
  })
  button.addEventListener('click', async () => {
    button.disabled = true
    try {
      const response = await fetch('/api/idp-profile', { credentials: 'same-origin' })
      const body = (await response.json()) as { profile?: { name?: string; email?: string }; message?: string }
      result.textContent = body.profile ? `The IdP says: ${body.profile.name ?? ''} <${body.profile.email ?? ''}>` : (body.message ?? `Answered ${response.status}`)
    } catch {
      result.textContent = 'The demo server could not be reached.'
    } finally {
      button.disabled = false
    }
  })
}
