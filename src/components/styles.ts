/**
 * Shadow styles: one theme of CSS custom properties (docs/elements.md, "Theming"), a `part` on
 * every element. By default the elements paint no surface (they sit in the app's card), take the
 * page's text colour and font, derive their borders and quiet text from that colour, and follow
 * the page's `color-scheme` (light-dark()) for the one filled primary action, the focus ring and
 * the error. They keep 3:1 borders and 24px targets (WCAG 2.2 AA), give way to `forced-colors` and
 * `prefers-reduced-motion`, and wrap long addresses, names and links rather than overflow.
 */
export const styles = `
:host{display:block;min-width:0;font:var(--latchkey-font,inherit);color:var(--latchkey-text,inherit);background:var(--latchkey-surface,transparent);
 --p:var(--latchkey-primary,light-dark(#1f2328,#f0f3f6));--pt:var(--latchkey-primary-text,light-dark(#fff,#16181c));
 --m:var(--latchkey-muted,color-mix(in srgb,currentColor 72%,transparent));--b:var(--latchkey-border,color-mix(in srgb,currentColor 52%,transparent));
 --r:var(--latchkey-radius,.5rem);--s:var(--latchkey-space,.75rem);--in:var(--latchkey-field,transparent);
 --err:var(--latchkey-error,light-dark(#b42318,#ff9389));--focus:var(--latchkey-focus,light-dark(#2563eb,#7cb0ff))}
:host([hidden]){display:none}
[hidden]{display:none!important}
*{box-sizing:border-box;overflow-wrap:anywhere}
.stack{display:grid;gap:var(--s);max-width:var(--latchkey-width,24rem);min-width:0}
.stack>*,form>*{min-width:0}
form{display:grid;gap:calc(var(--s)*.67)}
label{display:grid;gap:.3rem;font-size:.9em}
input{font:inherit;width:100%;min-height:24px;padding:.6em .75em;border:1px solid var(--b);border-radius:var(--r);background:var(--in);color:inherit}
input[type=checkbox]{width:24px;height:24px;margin:0;padding:0;accent-color:var(--focus)}
label[part~=trust]{display:flex;align-items:center;gap:.5em}
.hint{color:var(--m);font-size:.9em}
button{font:inherit;display:flex;align-items:center;justify-content:center;gap:.6em;min-height:24px;min-width:24px;padding:.6em 1em;cursor:pointer;text-align:center;
 border:1px solid var(--b);border-radius:var(--r);background:transparent;color:inherit}
button[part~=primary]{background:var(--p);color:var(--pt);border-color:var(--p);font-weight:600}
button[style*="--latchkey-brand:"]{background:var(--latchkey-brand);color:var(--latchkey-brand-text,#fff)}
button[part~=link]{justify-self:start;padding:.25em .1em;border-color:transparent;text-decoration:underline;text-underline-offset:.2em}
button:disabled{opacity:.6;cursor:progress}
:is(button,input,a,[tabindex]):focus-visible{outline:2px solid var(--focus);outline-offset:2px}
img{width:1.25em;height:1.25em;flex:none}
img.qr{width:var(--latchkey-qr-size,12rem);max-width:100%;height:auto;background:#fff}
.mark{display:inline-grid;place-items:center;flex:none;width:1.35em;height:1.35em;border:1.5px solid;border-radius:50%;font-size:.8em;font-weight:700;line-height:1}
.last-used{font-size:.75em;font-weight:600;padding:.1em .55em;border:1px solid;border-radius:999px;white-space:nowrap}
.or{display:flex;align-items:center;gap:var(--s);margin:0;color:var(--m);font-size:.85em}
.or::before,.or::after{content:"";flex:1;border-top:1px solid var(--b)}
.error{color:var(--err);margin:0}
.message{margin:0}
a{color:inherit}
h2{margin:0;font-size:1.15em}
[part~=foot]{justify-content:space-between}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem var(--s)}
.user{display:flex;flex-wrap:wrap;align-items:center;gap:.4em .6em}
.user [part~=signout]{margin-inline-start:auto}
.avatar{width:var(--latchkey-avatar-size,2rem);height:var(--latchkey-avatar-size,2rem);border-radius:50%}
[part=email],[part=when],[part=stale],[part=count]{color:var(--m)}
.sessions,.accounts,.factors,.devices{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
:is(.sessions,.factors,.devices) li{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:.1rem .6rem;align-items:center}
:is(.sessions,.factors,.devices) [part=when]{grid-column:1;font-size:.85em}
:is(.sessions,.factors,.devices) button{grid-row:1/3;grid-column:2}
.accounts li{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.4rem .6rem}
a[part~=button]{display:flex;align-items:center;justify-content:center;min-height:24px;padding:.6em 1em;border:1px solid var(--b);border-radius:var(--r);color:inherit;text-decoration:none}
.codes{columns:2;gap:1.5rem;margin:0;padding:0;list-style-position:inside;line-height:1.8;font-family:ui-monospace,monospace}
[part=secret] code{font-family:ui-monospace,monospace;word-spacing:.3em}
@media (forced-colors:active){button,a[part~=button],input,.last-used{border:1px solid ButtonText}:is(button,input,a,[tabindex]):focus-visible{outline-color:Highlight}button:disabled{border-color:GrayText}}
@media (prefers-reduced-motion:reduce){*,::before,::after{animation:none!important;transition:none!important;scroll-behavior:auto!important}}
`
