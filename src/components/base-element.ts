import type { AuthClient } from '../client/index.js'
import { isRtl } from '../core/locale.js'
import { h, keep } from './dom.js'
import { styles } from './styles.js'
import { choose, english, say, wordsFor, type Key, type Words } from './words.js'

/** Shared plumbing: a shadow root, the client, a re-render on every session change, the element's language. */
export abstract class LatchkeyElement extends HTMLElement {
  static observedAttributes = ['lang']
  protected root = this.attachShadow({ mode: 'open' })
  /** Everything shown: it carries the language and its direction (the host stays the app's). */
  private box = h('div')
  private off?: () => void
  /** The page's `<html lang>` changing changes the language of elements that follow it. */
  private pageLang = new MutationObserver(() => this.speak())
  /** The language spoken, and whether it is ready: nothing shows before (no flash of English). */
  protected words: Words = english
  private spoken = false
  private wanted?: string
  constructor(protected client: AuthClient) {
    super()
  }
  connectedCallback() {
    this.off = this.client.onSessionChange(() => this.update())
    this.pageLang.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] })
    this.speak()
    this.client.getSession().catch((e) => this.failed(e)).finally(() => this.update())
  }
  disconnectedCallback() {
    this.off?.()
    this.pageLang.disconnect()
  }
  attributeChangedCallback() {
    if (this.isConnected) this.speak()
  }
  /** Takes on the language chosen now (choose()), once its words are there. */
  private async speak() {
    const tag = choose(this, this.client)
    if (tag === this.wanted) return
    this.wanted = tag
    const words = await this.wordsFor(tag)
    if (this.wanted !== tag) return
    this.words = words
    this.spoken = true
    this.box.lang = words.lang
    this.box.dir = isRtl(words.lang) ? 'rtl' : 'ltr'
    this.relang()
  }
  /** `tag`'s words (the account settings elements add theirs: profile-words.ts). */
  protected wordsFor(tag: string): Promise<Words> {
    return wordsFor(this.client, tag)
  }
  /** The language changed: what was said in the old one is said again. */
  protected relang() {
    this.update()
  }
  /** `key`'s message in this element's language. */
  protected t = (key: Key, values?: Record<string, unknown>): string => say(this.words, key, values)
  protected failed(_error: unknown): void {}
  private sheet?: HTMLStyleElement[]
  /** An element's own styles, after the shared ones (the account settings elements'). */
  protected ownStyles = ''
  /** Shows `children` after the styles, leaving in place the nodes already shown (see keep()). */
  protected paint(...children: unknown[]) {
    this.sheet ??= [styles, this.ownStyles].filter(Boolean).map((textContent) => Object.assign(document.createElement('style'), { textContent }))
    keep(this.root, [...this.sheet, this.box])
    keep(this.box, children.filter((c): c is Node => c instanceof Node))
  }
  protected update() {
    this.setAttribute('status', this.client.status)
    if (this.spoken) this.render()
  }
  protected abstract render(): void
}
