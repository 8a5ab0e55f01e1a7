/**
 * The app's brand (`theme`): checked at start-up, so that what reaches an email or a page is a
 * name without line breaks, a logo URL of a safe kind and colours of one plain form; its name
 * filled in per request (the origin's host when none is set).
 */
import { configurationError } from '../../core/errors.js'
import type { Theme } from '../../core/types.js'
import { isLoopback } from './public-origin.js'
import type { Context } from './types.js'

/** The theme of one request: the configured one, its name filled in. */
export type RequestTheme = Theme & { name: string }

const fields = ['name', 'colorScheme', 'logo', 'brandColor', 'buttonText'] as const
const hexColour = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i
const dataImage = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/
/** A data: logo travels in every email: larger ones belong at an https URL. */
const maxDataLogo = 100_000
const maxName = 100

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** `theme` checked; a mistake is a Configuration error that says the fix. */
export function resolveTheme(theme: Theme | undefined): Theme {
  if (theme === undefined) return {}
  if (!theme || typeof theme !== 'object' || Array.isArray(theme)) throw configurationError(`latchkey: expected theme to be an object like { name: 'Acme', logo, brandColor }, got ${shown(theme)}`)
  const unknown = Object.keys(theme).filter((key) => !(fields as readonly string[]).includes(key))
  if (unknown.length) throw configurationError(`latchkey: theme has ${unknown.map((k) => `"${k}"`).join(', ')}, which is no theme field; expected ${fields.join(', ')}`)
  const { name, colorScheme, logo, brandColor, buttonText } = theme
  const resolved: Theme = {}
  if (name !== undefined) resolved.name = checkName(name)
  if (colorScheme !== undefined) {
    if (colorScheme !== 'auto' && colorScheme !== 'dark' && colorScheme !== 'light') throw configurationError(`latchkey: theme.colorScheme must be "auto", "dark" or "light", got ${shown(colorScheme)}`)
    resolved.colorScheme = colorScheme
  }
  if (logo !== undefined) resolved.logo = checkLogo(logo)
  if (brandColor !== undefined) resolved.brandColor = checkColour('brandColor', brandColor)
  if (buttonText !== undefined) resolved.buttonText = checkColour('buttonText', buttonText)
  return Object.freeze(resolved)
}

function checkName(name: unknown): string {
  const trimmed = typeof name === 'string' ? name.trim() : ''
  // Control characters include line breaks: the name goes into a Subject header.
  if (!trimmed || trimmed.length > maxName || /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(trimmed)) {
    throw configurationError(`latchkey: theme.name must be the app's name on one line, 1 to ${maxName} characters without control characters, got ${shown(name)}`)
  }
  return trimmed
}

function checkLogo(logo: unknown): string {
  const fix = 'an https URL (http only on localhost), or a data:image/png, jpeg, gif, webp or svg+xml URL in base64'
  if (typeof logo !== 'string') throw configurationError(`latchkey: theme.logo must be ${fix}, got ${shown(logo)}`)
  if (logo.startsWith('data:')) {
    if (!dataImage.test(logo)) throw configurationError(`latchkey: theme.logo must be ${fix}; this data: URL is not one (${shown(logo)})`)
    if (logo.length > maxDataLogo) throw configurationError(`latchkey: theme.logo is a data: URL of ${logo.length} characters, carried in every email; keep it under ${maxDataLogo} or serve the logo at an https URL`)
    return logo
  }
  let url: URL
  try {
    url = new URL(logo)
  } catch {
    throw configurationError(`latchkey: theme.logo must be ${fix}, got ${shown(logo)}`)
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.host))) return url.href
  throw configurationError(`latchkey: theme.logo must be ${fix}, got ${shown(logo)}`)
}

function checkColour(field: 'brandColor' | 'buttonText', value: unknown): string {
  if (typeof value !== 'string' || !hexColour.test(value)) throw configurationError(`latchkey: theme.${field} must be a hex colour, #rgb or #rrggbb (like "#346df1"), got ${shown(value)}`)
  return value.toLowerCase()
}

/** This request's theme: the configured one, named by the origin's host when it has no name. */
export function requestTheme(ctx: Pick<Context, 'config' | 'origin'>): RequestTheme {
  const theme = ctx.config.theme
  return { ...theme, name: theme.name ?? new URL(ctx.origin).host }
}
