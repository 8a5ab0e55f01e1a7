/**
 * The account settings elements' styles (`<latchkey-profile>` and its sections), after the shared
 * ones (styles.ts). No surface of their own: a transparent background and the page's text colour,
 * and the colours follow the page's `color-scheme` (`light-dark()`: a page that declares `light
 * dark` gets the dark set where the user asks for dark). Every value is a `--latchkey-*` custom
 * property with a fallback that keeps WCAG 2.2 AA: 4.5:1 text, 3:1 borders and focus ring on
 * white and on a dark page, 40px targets. One filled (`primary`) button per section; the rest are
 * quiet (outlined), a destructive one in the error colour.
 */

/** The custom properties, resolved once on each element (`--lk-*` so they never meet the shared sheet's own). */
const properties = `
:host{color-scheme:inherit;background:var(--latchkey-surface,transparent);color:var(--latchkey-text,currentColor);font:var(--latchkey-font,inherit);
 --lk-primary:var(--latchkey-primary,light-dark(#1d4ed8,#8ab4ff));--lk-primary-text:var(--latchkey-primary-text,light-dark(#fff,#0a1633));
 --lk-muted:var(--latchkey-muted,light-dark(#4a5160,#b6bcc6));--lk-border:var(--latchkey-border,light-dark(#6b7079,#8e949e));
 --lk-line:light-dark(#0000001f,#ffffff2e);--lk-error:var(--latchkey-error,light-dark(#b42318,#ff9389));--lk-focus:var(--latchkey-focus,var(--lk-primary));
 --lk-radius:var(--latchkey-radius,.5rem);--lk-space:var(--latchkey-space,1rem);
 --b:var(--lk-border);--err:var(--lk-error);--focus:var(--lk-focus)}`

/** A quiet button, a filled one: also what the profile gives the sections it reuses (their `::part(button)`). */
const quiet = 'font:inherit;min-height:2.5rem;padding:.45em 1em;border:1px solid var(--lk-border);border-radius:var(--lk-radius);background:transparent;color:inherit;font-weight:500'
const filled = 'background:var(--lk-primary);border-color:var(--lk-primary);color:var(--lk-primary-text);font-weight:600'
const field = 'font:inherit;min-height:2.5rem;padding:.45em .75em;border:1px solid var(--lk-border);border-radius:var(--lk-radius);background:transparent;color:inherit'

/** `<latchkey-identity>`, `<latchkey-password>`, `<latchkey-passkeys>`, the organization elements, `<latchkey-connected-apps>` and `<latchkey-profile>`. */
export const settingsStyles = `${properties}
.stack{max-width:var(--latchkey-width,40rem);gap:calc(var(--lk-space)*.75)}
button,a[part~=button]{${quiet};display:inline-flex;align-items:center;justify-content:center;gap:.5em;text-align:center;cursor:pointer}
button[part~=primary]{${filled}}
.stack>:is(button,a[part~=button]){justify-self:start}
button[part~=danger]{color:var(--lk-error);border-color:var(--lk-error)}
:is(button,input,a,[tabindex]):focus-visible{outline:2px solid var(--lk-focus);outline-offset:2px}
input{${field};box-sizing:border-box;width:100%;min-width:0}
select{${field};box-sizing:border-box;max-width:100%;min-width:0}
label{display:grid;gap:.3rem}
form{display:grid;gap:calc(var(--lk-space)*.75)}
p{margin:0}
[role=status]:empty{position:absolute}
.error{color:var(--lk-error)}
.muted,[part~=detail]{color:var(--lk-muted)}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
.row>.error{flex:1 1 100%}
:is(.passkeys,.members,.invitations,.apps){list-style:none;margin:0;padding:0;display:grid}
:is(.passkeys,.members,.invitations,.apps)>li{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem .75rem;padding-block:.75rem;border-block-start:1px solid var(--lk-line)}
:is(.passkeys,.members,.invitations,.apps)>li:last-child{border-block-end:1px solid var(--lk-line)}
:is(.passkeys,.members,.invitations,.organizations,.apps) .what{flex:1 1 12rem;min-width:0;display:grid;gap:.15rem}
.passkeys form,.passkeys .ask,.apps .ask{flex:1 1 100%}
.apps [part~=scopes]{margin:0;padding-inline-start:1.25rem;overflow-wrap:anywhere}
[part~=icon]{flex:none;width:1.75rem;height:1.75rem;color:var(--lk-muted)}
[part~=name],[part~=value]{font-weight:600;overflow-wrap:anywhere}
[part~=detail]{font-size:.9em;overflow-wrap:anywhere}
.organizations{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
.organizations button{width:100%;justify-content:flex-start;text-align:start;flex-wrap:wrap}
button[part~=current]{border:2px solid var(--lk-primary)}
[part~=logo]{flex:none;width:1.5rem;height:1.5rem;border-radius:.25rem;object-fit:cover}
.current{flex:none;font-size:.9em}
[part~=subheading]{margin:0;font-size:1em}
.identity{display:flex;flex-wrap:wrap;align-items:center;gap:var(--lk-space)}
.identity dl{flex:1 1 12rem;min-width:0;margin:0;display:grid;grid-template-columns:auto minmax(0,1fr);gap:.35rem 1rem}
.identity dt{color:var(--lk-muted)}
.identity dd{margin:0;overflow-wrap:anywhere}
.avatar{flex:none;width:var(--latchkey-avatar-size,3.5rem);height:var(--latchkey-avatar-size,3.5rem);border-radius:50%;object-fit:cover}
.initials{display:grid;place-items:center;background:var(--lk-primary);color:var(--lk-primary-text);font-weight:600;font-size:1.25em}
`

/** The sections the profile reuses (their own elements, styled through their parts) look as its own do. */
const reused = ':is(latchkey-mfa,latchkey-sessions,latchkey-accounts)'

/** `<latchkey-profile>`: its sections, and the elements it reuses. */
export const profileStyles = `${settingsStyles}
.profile{display:grid;gap:calc(var(--lk-space)*1.75);max-width:var(--latchkey-width,44rem)}
.profile>section{display:grid;gap:calc(var(--lk-space)*.75);padding-block-start:calc(var(--lk-space)*1.25);border-block-start:1px solid var(--lk-line);min-width:0}
.profile>section:first-child{padding:0;border:0}
[part~=heading]{margin:0;font-size:1.15em;line-height:1.3}
:is(latchkey-identity,latchkey-password,latchkey-passkeys,latchkey-organization,latchkey-organization-switcher,latchkey-connected-apps){--latchkey-width:none}
${reused}{display:block;min-width:0;background:transparent;color:inherit;color-scheme:inherit;--latchkey-width:none;--latchkey-border:var(--lk-border);--latchkey-error:var(--lk-error);--latchkey-focus:var(--lk-focus)}
${reused}::part(button){${quiet};justify-self:start}
latchkey-mfa::part(enroll){${filled}}
${reused}::part(input){${field}}
${reused}::part(error){color:var(--lk-error)}
${reused}::part(when){color:var(--lk-muted)}
${reused}::part(name){overflow-wrap:anywhere;font-weight:600}
latchkey-sessions::part(device){font-weight:600}
`
