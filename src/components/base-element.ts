import type { AuthClient } from '../client/index.js'
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
  protected paint(...children: unknown[]) {
    const style = document.createElement('style')
    style.textContent = styles
    this.root.replaceChildren(style, ...children.filter((c): c is Node => c instanceof Node))
  }
  protected update() {
    this.setAttribute('status', this.client.status)
    this.render()
  }
  protected abstract render(): void
}
