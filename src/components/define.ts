/** Defining the elements: at once, or once the document has one (the settings page's elements). */

export function define(name: string, element: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, element)
}

/**
 * Defines each of `loads` once an element of its name is in the document (the ones there before
 * upgrade then); `lazy` false: now. One watch for them all; it looks in the document, not inside
 * shadow roots (an element that shows another in its shadow root defines it itself).
 */
export function defineWhenUsed(loads: Record<string, () => Promise<CustomElementConstructor>>, lazy: boolean): void {
  const waiting = new Map(Object.entries(loads).filter(([name]) => !customElements.get(name)))
  // Until its code arrives an element shows nothing: not what it holds for a signed-out visitor
  // (a link to sign in) while someone is signed in.
  if (waiting.size && document.adoptedStyleSheets) {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync([...waiting.keys()].map((name) => `${name}:not(:defined)`).join() + '{visibility:hidden}')
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
  }
  const look = () => {
    for (const [name, load] of waiting) {
      if (lazy && !document.querySelector(name)) continue
      waiting.delete(name)
      load().then((element) => define(name, element))
    }
    if (!waiting.size) watch.disconnect()
  }
  const watch = new MutationObserver(look)
  watch.observe(document, { childList: true, subtree: true })
  look()
}
