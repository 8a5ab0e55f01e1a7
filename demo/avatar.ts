/** The Demo IdP users' pictures: their initials on a coloured disc, drawn as SVG, served by the IdP. */
import type { DemoUser } from './users.js'

const colours = ['#5b3cc4', '#0f7b4f', '#b4451f', '#1f5fb4']

export function avatarSvg(user: Pick<DemoUser, 'id' | 'name'>): string {
  const initials = user.name.split(/\s+/).map((word) => word.charAt(0).toUpperCase()).join('').slice(0, 2)
  const colour = colours[[...user.id].reduce((sum, c) => sum + c.charCodeAt(0), 0) % colours.length]
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="${colour}"/><text x="32" y="41" fill="#fff" font-family="system-ui,sans-serif" font-size="24" font-weight="600" text-anchor="middle">${initials.replace(/[^A-Z0-9]/g, '')}</text></svg>`
}
