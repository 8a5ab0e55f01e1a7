/**
 * The plugin's words in every shipped language: the invitation email, the invitation link's page,
 * and the sentence for its one error code a page shows. `{organization}`, `{inviter}`, `{role}`
 * are filled in (escaped); `{name}` is the app's name and `{host}` its host.
 */
import type { PluginMessages } from 'latchkey/server'

export type OrganizationWord =
  | 'inviteSubject'
  | 'inviteLead'
  | 'inviteAction'
  | 'inviteFooter'
  | 'invitationHeading'
  | 'invitationLead'
  | 'invitationAccept'
  | 'invitationSignIn'
  | 'signIn'
  | 'invitationAccepted'
  | 'continue'
  | 'InvitationInvalid'

export const messages: PluginMessages<OrganizationWord> = {
  en: {
    inviteSubject: 'Join {organization} on {name}',
    inviteLead: '{inviter} invited you to join {organization} on {host} as {role}.',
    inviteAction: 'See the invitation',
    inviteFooter: 'If you did not expect this invitation, ignore this email: nothing happens unless you accept it.',
    invitationHeading: 'Invitation to {organization}',
    invitationLead: 'You are invited to join {organization} as {role}.',
    invitationAccept: 'Join {organization}',
    invitationSignIn: 'Sign in, or create an account, with the address this invitation was sent to; you will come back here.',
    signIn: 'Sign in or sign up',
    invitationAccepted: 'You are now a member of {organization}.',
    continue: 'Continue',
    InvitationInvalid: 'This invitation does not work: it was used, revoked or replaced, it expired, or it was sent to another address. Sign in with the address it was sent to, or ask for a new one.',
  },
  es: {
    inviteSubject: 'Únete a {organization} en {name}',
    inviteLead: '{inviter} te invitó a unirte a {organization} en {host} como {role}.',
    inviteAction: 'Ver la invitación',
    inviteFooter: 'Si no esperabas esta invitación, ignora este correo: no pasa nada a menos que la aceptes.',
    invitationHeading: 'Invitación a {organization}',
    invitationLead: 'Te invitan a unirte a {organization} como {role}.',
    invitationAccept: 'Unirme a {organization}',
    invitationSignIn: 'Inicia sesión, o crea una cuenta, con la dirección a la que se envió esta invitación; volverás aquí.',
    signIn: 'Iniciar sesión o registrarse',
    invitationAccepted: 'Ahora eres miembro de {organization}.',
    continue: 'Continuar',
    InvitationInvalid: 'Esta invitación no funciona: se usó, se revocó o se reemplazó, caducó o se envió a otra dirección. Inicia sesión con la dirección a la que se envió o pide una nueva.',
  },
  fr: {
    inviteSubject: 'Rejoignez {organization} sur {name}',
    inviteLead: '{inviter} vous invite à rejoindre {organization} sur {host} en tant que {role}.',
    inviteAction: "Voir l'invitation",
    inviteFooter: "Si vous n'attendiez pas cette invitation, ignorez cet e-mail : rien ne se passe tant que vous ne l'acceptez pas.",
    invitationHeading: 'Invitation à {organization}',
    invitationLead: 'Vous êtes invité à rejoindre {organization} en tant que {role}.',
    invitationAccept: 'Rejoindre {organization}',
    invitationSignIn: "Connectez-vous, ou créez un compte, avec l'adresse à laquelle cette invitation a été envoyée ; vous reviendrez ici.",
    signIn: 'Se connecter ou créer un compte',
    invitationAccepted: 'Vous êtes maintenant membre de {organization}.',
    continue: 'Continuer',
    InvitationInvalid: "Cette invitation ne fonctionne pas : elle a été utilisée, révoquée ou remplacée, elle a expiré, ou elle a été envoyée à une autre adresse. Connectez-vous avec l'adresse à laquelle elle a été envoyée, ou demandez-en une nouvelle.",
  },
  de: {
    inviteSubject: 'Treten Sie {organization} auf {name} bei',
    inviteLead: '{inviter} hat Sie eingeladen, {organization} auf {host} als {role} beizutreten.',
    inviteAction: 'Einladung ansehen',
    inviteFooter: 'Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail: Es passiert nichts, solange Sie sie nicht annehmen.',
    invitationHeading: 'Einladung zu {organization}',
    invitationLead: 'Sie sind eingeladen, {organization} als {role} beizutreten.',
    invitationAccept: '{organization} beitreten',
    invitationSignIn: 'Melden Sie sich mit der Adresse an, an die diese Einladung ging, oder erstellen Sie damit ein Konto; danach kommen Sie hierher zurück.',
    signIn: 'Anmelden oder registrieren',
    invitationAccepted: 'Sie sind jetzt Mitglied von {organization}.',
    continue: 'Weiter',
    InvitationInvalid: 'Diese Einladung funktioniert nicht: Sie wurde verwendet, widerrufen oder ersetzt, sie ist abgelaufen oder ging an eine andere Adresse. Melden Sie sich mit der Adresse an, an die sie ging, oder bitten Sie um eine neue.',
  },
  'pt-BR': {
    inviteSubject: 'Entre em {organization} no {name}',
    inviteLead: '{inviter} convidou você para entrar em {organization} no {host} como {role}.',
    inviteAction: 'Ver o convite',
    inviteFooter: 'Se você não esperava este convite, ignore este e-mail: nada acontece a menos que você o aceite.',
    invitationHeading: 'Convite para {organization}',
    invitationLead: 'Você foi convidado para entrar em {organization} como {role}.',
    invitationAccept: 'Entrar em {organization}',
    invitationSignIn: 'Entre, ou crie uma conta, com o endereço para o qual este convite foi enviado; você voltará para cá.',
    signIn: 'Entrar ou criar conta',
    invitationAccepted: 'Agora você é membro de {organization}.',
    continue: 'Continuar',
    InvitationInvalid: 'Este convite não funciona: foi usado, revogado ou substituído, expirou ou foi enviado para outro endereço. Entre com o endereço para o qual foi enviado ou peça um novo.',
  },
  ja: {
    inviteSubject: '{name} の {organization} に参加する',
    inviteLead: '{inviter} さんが {host} の {organization} に {role} として参加するよう招待しました。',
    inviteAction: '招待を見る',
    inviteFooter: 'この招待に心当たりがない場合は、このメールを無視してください。承認しない限り何も起こりません。',
    invitationHeading: '{organization} への招待',
    invitationLead: '{organization} に {role} として参加するよう招待されています。',
    invitationAccept: '{organization} に参加する',
    invitationSignIn: 'この招待が送られたアドレスでサインインするか、アカウントを作成してください。その後ここに戻ります。',
    signIn: 'サインインまたは登録',
    invitationAccepted: '{organization} のメンバーになりました。',
    continue: '続ける',
    InvitationInvalid: 'この招待は使えません。使用済み、取り消し済み、置き換え済み、期限切れ、または別のアドレスに送られた招待です。送信先のアドレスでサインインするか、新しい招待を依頼してください。',
  },
  'zh-Hans': {
    inviteSubject: '加入 {name} 上的 {organization}',
    inviteLead: '{inviter} 邀请你以 {role} 身份加入 {host} 上的 {organization}。',
    inviteAction: '查看邀请',
    inviteFooter: '如果你没有预料到这封邀请，请忽略此邮件：除非你接受，否则什么都不会发生。',
    invitationHeading: '加入 {organization} 的邀请',
    invitationLead: '你受邀以 {role} 身份加入 {organization}。',
    invitationAccept: '加入 {organization}',
    invitationSignIn: '请使用接收此邀请的邮箱地址登录或注册账户，完成后会回到这里。',
    signIn: '登录或注册',
    invitationAccepted: '你现在是 {organization} 的成员了。',
    continue: '继续',
    InvitationInvalid: '此邀请无法使用：它已被使用、撤销或替换，已过期，或发送给了另一个地址。请使用接收邀请的地址登录，或请求新的邀请。',
  },
  ar: {
    inviteSubject: 'انضم إلى {organization} على {name}',
    inviteLead: 'دعاك {inviter} للانضمام إلى {organization} على {host} بدور {role}.',
    inviteAction: 'عرض الدعوة',
    inviteFooter: 'إذا لم تكن تتوقع هذه الدعوة فتجاهل هذه الرسالة: لن يحدث شيء ما لم تقبلها.',
    invitationHeading: 'دعوة إلى {organization}',
    invitationLead: 'أنت مدعو للانضمام إلى {organization} بدور {role}.',
    invitationAccept: 'الانضمام إلى {organization}',
    invitationSignIn: 'سجّل الدخول، أو أنشئ حسابًا، بالعنوان الذي أُرسلت إليه هذه الدعوة؛ ثم ستعود إلى هنا.',
    signIn: 'تسجيل الدخول أو إنشاء حساب',
    invitationAccepted: 'أنت الآن عضو في {organization}.',
    continue: 'متابعة',
    InvitationInvalid: 'هذه الدعوة لا تعمل: فقد استُخدمت أو أُلغيت أو استُبدلت، أو انتهت صلاحيتها، أو أُرسلت إلى عنوان آخر. سجّل الدخول بالعنوان الذي أُرسلت إليه، أو اطلب دعوة جديدة.',
  },
  he: {
    inviteSubject: 'הצטרפות אל {organization} ב-{name}',
    inviteLead: '{inviter} הזמין אותך להצטרף אל {organization} ב-{host} בתפקיד {role}.',
    inviteAction: 'לצפייה בהזמנה',
    inviteFooter: 'אם לא ציפית להזמנה הזו, אפשר להתעלם מהמייל: דבר לא יקרה אלא אם תאשרו אותה.',
    invitationHeading: 'הזמנה אל {organization}',
    invitationLead: 'הוזמנת להצטרף אל {organization} בתפקיד {role}.',
    invitationAccept: 'הצטרפות אל {organization}',
    invitationSignIn: 'התחברו, או צרו חשבון, עם הכתובת שאליה נשלחה ההזמנה; לאחר מכן תחזרו לכאן.',
    signIn: 'התחברות או הרשמה',
    invitationAccepted: 'את/ה חבר/ה עכשיו ב-{organization}.',
    continue: 'המשך',
    InvitationInvalid: 'ההזמנה הזו לא עובדת: היא נוצלה, בוטלה או הוחלפה, פג תוקפה, או שנשלחה לכתובת אחרת. התחברו עם הכתובת שאליה נשלחה, או בקשו הזמנה חדשה.',
  },
}
