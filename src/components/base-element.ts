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
  private sheet?: HTMLStyleElement
  /**
   * Shows `children` after the styles. The same nodes in the same order are left alone: moving a
   * node out and back in would take the focus, and the text being typed, from a field in it.
   */
  protected paint(...children: unknown[]) {
    const nodes = children.filter((c): c is Node => c instanceof Node)
    const shown = this.root.childNodes
    if (this.sheet && shown.length === nodes.length + 1 && nodes.every((n, i) => shown[i + 1] === n)) return
    this.sheet ??= Object.assign(document.createElement('style'), { textContent: styles })
    this.root.replaceChildren(this.sheet, ...nodes)
  }
  protected update() {
    this.setAttribute('status', this.client.status)
    this.render()
  }
  protected abstract render(): void
}
