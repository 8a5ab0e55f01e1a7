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
