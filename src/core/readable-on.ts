/**
 * The words' colour on a filled button, for the server's emails and pages and the elements alike:
 * white or near-black, whichever contrasts more with `colour` (WCAG relative luminance), and black
 * on the few mid colours where neither reaches 4.5:1 (AA), so the words always do. Only `#rgb`
 * and `#rrggbb` are read; any other form gives undefined (the caller keeps its own default).
 */
export function readableOn(colour: string | undefined): string | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour ?? '')?.[1]
  if (!hex) return undefined
  const full = hex.length === 3 ? hex.replace(/./g, '$&$&') : hex
  const light = [0.2126, 0.7152, 0.0722].reduce((sum, weight, i) => {
    const c = parseInt(full.slice(2 * i, 2 * i + 2), 16) / 255
    return sum + weight * (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
  }, 0)
  // White (luminance 1) reaches 4.5:1 up to 0.1833, and is then the better; #111111 (0.0056) from 0.2002.
  return light <= 0.1833 ? '#ffffff' : light >= 0.2002 ? '#111111' : '#000000'
}
