/**
 * The built-in providers' logos: small marks of our own drawing on a 24 by 24 grid, each whole on
 * any background (a mark of one colour stands on its own badge), so it reads on its brand-coloured
 * button and on any other. A data: URL: the logo travels in the provider's `style` (GET
 * /providers), in no browser bundle, and needs no request of its own.
 */
export const svgLogo = (body: string): string => `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">${body}</svg>`)}`

/** Microsoft's four squares, for its providers (Entra ID, and Azure AD under its old name). */
export const microsoftLogo = svgLogo(
  '<path fill="#f25022" d="M3 3h8.5v8.5H3z"/><path fill="#7fba00" d="M12.5 3H21v8.5h-8.5z"/><path fill="#00a4ef" d="M3 12.5h8.5V21H3z"/><path fill="#ffb900" d="M12.5 12.5H21V21h-8.5z"/>',
)
