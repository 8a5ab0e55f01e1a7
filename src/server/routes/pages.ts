/** GET /error and GET /verify-request. */
import type { Context } from '../kernel/context.js'
import { pageWords } from '../kernel/page-language.js'
import { errorPage, tryAgainUrl, verifyRequestPage } from './page-html.js'
import { html, redirect, type Reply } from '../kernel/respond.js'

export async function getErrorPage(ctx: Context): Promise<Reply> {
  if (ctx.config.pages.error) return redirect(ctx, ctx.config.pages.error + ctx.url.search)
  return html(ctx, errorPage(ctx, pageWords(ctx), ctx.url.searchParams.get('error') ?? 'Configuration', await tryAgainUrl(ctx)))
}

export async function getVerifyRequestPage(ctx: Context): Promise<Reply> {
  if (ctx.config.pages.verifyRequest) return redirect(ctx, ctx.config.pages.verifyRequest)
  return html(ctx, verifyRequestPage(ctx, pageWords(ctx)))
}
