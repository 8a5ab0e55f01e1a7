import type { AppProvider, AuthClient } from '../client/index.js'
import { accountsElement } from './accounts-element.js'
import { connectedAppsElement } from './connected-apps-element.js'
import { LatchkeyElement } from './base-element.js'
import { define } from './define.js'
import { h, keep } from './dom.js'
import { identityElement } from './identity-element.js'
import { mfaElement } from './mfa-element.js'
import { organizationElement } from './organization-element.js'
import { organizationSwitcherElement } from './organization-switcher-element.js'
import { passkeysElement } from './passkeys-element.js'
import { passwordElement } from './password-element.js'
import { maybe } from './plugins.js'
import { profileWordsFor, sayProfile, type ProfileKey } from './profile-words.js'
import { profileStyles } from './profile-styles.js'
import { sessionsElement } from './sessions-element.js'

const order = ['identity', 'password', 'passkeys', 'mfa', 'sessions', 'accounts', 'connected-apps', 'organization'] as const
type Section = (typeof order)[number]

/** Each section's element, shown in the profile's shadow root: defined here, since the lazy definition looks only in the document. */
const elements: Record<Section, (client: AuthClient) => CustomElementConstructor> = {
  identity: identityElement,
  password: passwordElement,
  passkeys: passkeysElement,
  mfa: mfaElement,
  sessions: sessionsElement,
  accounts: accountsElement,
  'connected-apps': connectedAppsElement,
  organization: organizationElement,
}

const headings: Record<Exclude<Section, 'mfa'>, ProfileKey> = {
  identity: 'profileHeading',
  password: 'passwordHeading',
  passkeys: 'passkeysHeading',
  sessions: 'sessionsHeading',
  accounts: 'accountsHeading',
  'connected-apps': 'connectedAppsHeading',
  organization: 'organizationsHeading',
}
/** The server plugin (its id in GET /plugins) each section's routes come from, where the section needs one; password and passkeys go by the providers. */
const serverPlugins: Partial<Record<Section, string>> = { mfa: 'mfa', sessions: 'sessions', accounts: 'accounts', 'connected-apps': 'oauth-server', organization: 'organizations' }
const abouts: Partial<Record<Section, ProfileKey>> = { passkeys: 'passkeysAbout', mfa: 'mfaAbout', sessions: 'sessionsAbout', accounts: 'accountsAbout', 'connected-apps': 'connectedAppsAbout', organization: 'organizationsAbout' }

/**
 * `<latchkey-profile>`: the signed-in user's account, one section each, every one of them an
 * element that also stands alone: who they are (`<latchkey-identity>`), their password
 * (`<latchkey-password>`, with the password plugin and a `Password()` provider), passkeys
 * (`<latchkey-passkeys>`, with the passkey plugin and a WebAuthn provider), two-step verification
 * (`<latchkey-mfa>`), where they are signed in (`<latchkey-sessions>`) and their connected
 * accounts (`<latchkey-accounts>`), with the connectedApps plugin the apps they allowed to use their account (`<latchkey-connected-apps>`), and, with the organizations plugin, the organization the user
 * works in (`<latchkey-organization-switcher>` and `<latchkey-organization>`). A section whose client plugin is missing, or whose feature
 * the server does not offer (its plugin absent from GET /plugins, or no provider of its kind), is left out. Each section has a heading (`heading-level`, default
 * 2) and a line on what it is for. `sections` picks them and their order (`"passkeys,mfa"`);
 * `callback-url` goes to the connected accounts. Empty when signed out (its `signed-out` slot).
 */
export function profileElement(client: AuthClient): CustomElementConstructor {
  for (const section of order) define(`latchkey-${section}`, elements[section](client))
  define('latchkey-organization-switcher', organizationSwitcherElement(client))
  return class LatchkeyProfile extends LatchkeyElement {
    static override observedAttributes = ['lang', 'sections', 'callback-url']
    protected override ownStyles = profileStyles
    private providers?: AppProvider[]
    /** The server's plugins; undefined where it does not say (then the client's plugins decide). */
    private plugins?: readonly string[]
    private asked = false
    /** Sections whose element said the server does not offer it. */
    private unavailable = new Set<string>()
    /** Each section as made, kept (its element keeps its state: an open form, what is typed). */
    private made = new Map<Section, { section: HTMLElement; heading: HTMLElement; about: HTMLElement; element: HTMLElement; more: HTMLElement[] }>()
    private container = h('div', { class: 'profile', part: 'container' })
    constructor() {
      super(client)
      this.root.addEventListener('latchkey-unavailable', (e) => {
        this.unavailable.add((e.target as HTMLElement).localName.replace('latchkey-', ''))
        this.render()
      })
    }
    protected override wordsFor(tag: string) {
      return profileWordsFor(this.client, tag)
    }
    override attributeChangedCallback(name?: string) {
      super.attributeChangedCallback()
      if (name !== 'lang' && this.isConnected) this.update()
    }
    /** Whether the client and the server have what `section` needs. */
    private offered(section: Section, providers: AppProvider[]): boolean {
      if (this.unavailable.has(section)) return false
      const server = serverPlugins[section]
      if (server && this.plugins && !this.plugins.includes(server)) return false
      if (section === 'identity') return true
      if (section === 'password') return !!maybe(this.client, 'password') && providers.some((p) => p.password)
      if (section === 'passkeys') return !!maybe(this.client, 'passkey') && providers.some((p) => p.type === 'webauthn')
      if (section === 'organization') return !!maybe(this.client, 'organizations')
      if (section === 'connected-apps') return !!maybe(this.client, 'connectedApps')
      return !!maybe(this.client, section)
    }
    private section(id: Section): HTMLElement {
      let made = this.made.get(id)
      if (!made) {
        const level = Math.min(6, Math.max(1, Number(this.getAttribute('heading-level')) || 2))
        const heading = h(`h${level}` as 'h2', { part: 'heading', id: `${id}-heading` })
        const about = h('p', { part: 'description', class: 'muted' })
        const element = document.createElement(`latchkey-${id}`)
        // The organization section: where the user works (the switcher), then that organization.
        const more = id === 'organization' ? [document.createElement('latchkey-organization-switcher')] : []
        made = { section: h('section', { part: `section ${id}`, 'aria-labelledby': heading.id }, heading, about, ...more, element), heading, about, element, more }
        this.made.set(id, made)
      }
      const about = abouts[id]
      made.heading.textContent = id === 'mfa' ? this.t('twoStep') : sayProfile(this.words, headings[id])
      made.about.textContent = about ? sayProfile(this.words, about) : ''
      made.about.hidden = !about
      // The sections speak the profile's language, whatever the page's.
      for (const element of [made.element, ...made.more]) element.setAttribute('lang', this.words.lang)
      const back = this.getAttribute('callback-url')
      if (id === 'accounts' && back) made.element.setAttribute('callback-url', back)
      return made.section
    }
    protected render() {
      if (!this.client.session?.user) return this.paint(h('slot', { name: 'signed-out' }))
      if (!this.asked) {
        this.asked = true
        // Which providers and plugins the server has (the client keeps them): until then, nothing shows, rather than sections that come and go.
        Promise.all([this.client.getProviders().then((all) => Object.values(all), () => []), this.client.getPlugins()]).then(([providers, plugins]) => {
          this.providers = providers
          this.plugins = plugins
          this.render()
        })
      }
      const providers = this.providers
      if (!providers) return this.paint()
      const wanted = this.getAttribute('sections')?.split(',').map((s) => s.trim()) ?? order
      const shown = order.filter((s) => wanted.includes(s)).sort((a, b) => wanted.indexOf(a) - wanted.indexOf(b)).filter((s) => this.offered(s, providers))
      keep(this.container, shown.map((s) => this.section(s)))
      this.paint(this.container)
    }
  }
}
