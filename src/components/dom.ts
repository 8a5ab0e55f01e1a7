/** Builds an element: properties and attributes (`part`, `aria-*`, `style` vars), then children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  ...children: unknown[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue
    if (key.startsWith('--')) el.style.setProperty(key, String(value))
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value as EventListener)
    else if (key in el && !key.includes('-') && key !== 'part') (el as any)[key] = value
    else el.setAttribute(key, value === true ? '' : String(value))
  }
  for (const child of children) if (child instanceof Node || typeof child === 'string') el.append(child)
  return el
}

/**
 * Makes `nodes` the children of `parent`, leaving in place those already there: a node taken out
 * and put back loses the focus (and a field the text being typed into it). Nodes that go are
 * removed first, so the ones that stay never move.
 */
export function keep(parent: Node, nodes: Node[]): void {
  const wanted = new Set(nodes)
  for (const child of [...parent.childNodes]) if (!wanted.has(child)) child.remove()
  nodes.forEach((node, i) => {
    const at = parent.childNodes[i]
    if (at !== node) parent.insertBefore(node, at ?? null)
  })
}

/**
 * Whether this tab's focus went nowhere (the focused node was removed or hidden by a step
 * change), so an element may take it. A tab in the background keeps its focus where it was.
 */
export function focusLost(): boolean {
  if (!document.hasFocus()) return false
  let at = document.activeElement
  while (at?.shadowRoot?.activeElement) at = at.shadowRoot.activeElement
  return !at || at === document.body || !at.isConnected || !at.getClientRects().length
}

/** After this render settles, gives the focus to `target()` when the focus went nowhere. */
export function refocus(target: () => HTMLElement | null | undefined): void {
  setTimeout(() => focusLost() && target()?.focus())
}

/** `text` (a device's or a user's name) filled into a message as a unit of its own direction: "Chrome on Linux" keeps its order in an Arabic sentence. */
export const isolate = (text: string) => `\u2068${text}\u2069`
