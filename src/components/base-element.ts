import type { AuthClient } from '../client/index.js'
import { keep } from './dom.js'
import { styles } from './styles.js'

/** Shared plumbing: a shadow root, the client, a re-render on every session change. */
export abstract class LatchkeyElement extends HTMLElement {
  protected root = this.attachShadow({ mode: 'open' })
  private off?: () => void
  constructor(protected client: AuthClient) {
    super()
  }
  connectedCallback() {
    this.off = this.client.onSessionChange(() => this.update())
    this.update()
    this.client.getSession().catch((e) => this.failed(e)).finally(() => this.update())
  }
  disconnectedCallback() {
    this.off?.()
  }
  protected failed(_error: unknown): void {}
  private sheet?: HTMLStyleElement
  /** Shows `children` after the styles, leaving in place the nodes already shown (see keep()). */
  protected paint(...children: unknown[]) {
    this.sheet ??= Object.assign(document.createElement('style'), { textContent: styles })
    keep(this.root, [this.sheet, ...children.filter((c): c is Node => c instanceof Node)])
  }
  protected update() {
    this.setAttribute('status', this.client.status)
    this.render()
  }
  protected abstract render(): void
}
