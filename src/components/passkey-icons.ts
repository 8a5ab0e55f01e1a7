/**
 * A passkey's icon by what it is: synced across the user's devices (a cloud), a security key, or
 * kept on the one device that made it. Drawn in the text colour; decorative (the name says it).
 * latchkey ships no authenticator logos (the AAGUID list it uses has names only).
 */
import type { PasskeyInfo } from '../client/passkey/index.js'

export type PasskeyKind = 'synced' | 'key' | 'device'

export function kindOf(p: PasskeyInfo): PasskeyKind {
  if (p.backedUp || p.deviceType === 'multiDevice') return 'synced'
  if (p.transports.some((t) => t === 'usb' || t === 'nfc' || t === 'ble')) return 'key'
  return 'device'
}

const paths: Record<PasskeyKind, string[]> = {
  synced: ['M7.5 18.5h9.25a4.25 4.25 0 0 0 .55-8.46A5.75 5.75 0 0 0 6.3 9.2a4.7 4.7 0 0 0 1.2 9.3Z', 'M10.5 13.25a1.75 1.75 0 1 0 3 0 1.75 1.75 0 0 0-3 0ZM12 15v2'],
  key: ['M9 2.75h6v5.5H9Z', 'M7 8.25h10v9a4 4 0 0 1-4 4h-2a4 4 0 0 1-4-4Z', 'M12 12.5v3'],
  device: ['M4.75 5.25h14.5v10H4.75Z', 'M2.5 18.75h19', 'M10.5 10.25a1.5 1.5 0 1 0 3 0 1.5 1.5 0 0 0-3 0Z'],
}

const svg = (tag: string, attributes: Record<string, string>) => {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag)
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value)
  return el
}

export function passkeyIcon(kind: PasskeyKind): SVGSVGElement {
  const icon = svg('svg', { viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.6', 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'aria-hidden': 'true', focusable: 'false', part: `icon ${kind}` }) as SVGSVGElement
  for (const d of paths[kind]) icon.append(svg('path', { d }))
  return icon
}
