/**
 * The plugin's words on the built-in pages, in every shipped language: the sentence for its error
 * code, which the error and sign-in pages show for `?error=InvalidPhoneNumber`.
 */
import type { PluginMessages } from 'latchkey/server'

export const messages: PluginMessages<'InvalidPhoneNumber'> = {
  en: { InvalidPhoneNumber: 'We cannot send a code to that phone number. Type it with its country code, like +1 415 555 0123.' },
  es: { InvalidPhoneNumber: 'No podemos enviar un código a ese número de teléfono. Escríbelo con el código de país, como +1 415 555 0123.' },
  fr: { InvalidPhoneNumber: "Nous ne pouvons pas envoyer de code à ce numéro. Saisissez-le avec l'indicatif du pays, par exemple +1 415 555 0123." },
  de: { InvalidPhoneNumber: 'An diese Telefonnummer können wir keinen Code senden. Geben Sie sie mit Ländervorwahl ein, zum Beispiel +1 415 555 0123.' },
  'pt-BR': { InvalidPhoneNumber: 'Não conseguimos enviar um código para esse número. Digite-o com o código do país, como +1 415 555 0123.' },
  ja: { InvalidPhoneNumber: 'この電話番号にはコードを送信できません。+1 415 555 0123 のように国番号から入力してください。' },
  'zh-Hans': { InvalidPhoneNumber: '无法向此电话号码发送验证码。请输入带国家代码的号码，例如 +1 415 555 0123。' },
  ar: { InvalidPhoneNumber: 'لا يمكننا إرسال رمز إلى رقم الهاتف هذا. اكتبه مع رمز البلد، مثل ‎+1 415 555 0123.' },
  he: { InvalidPhoneNumber: 'לא ניתן לשלוח קוד למספר הטלפון הזה. הקלידו אותו עם קידומת המדינה, למשל ‎+1 415 555 0123.' },
}
