/** The plugin's words on the built-in pages, in every shipped language: its error codes' sentences and its form. */
import type { PluginMessages } from 'latchkey/server'

type Key = 'SsoConnectionNotFound' | 'SsoSignInError' | 'SsoRequired' | 'SsoConnectionInvalid' | 'ssoEmail' | 'ssoContinue'

export const messages: PluginMessages<Key> = {
  en: {
    SsoConnectionNotFound: 'No single sign-on is set up for that address. Sign in another way, or ask your organization.',
    SsoSignInError: "Your organization's sign-in did not go through. Try again, or ask your organization's administrator.",
    SsoRequired: 'Your organization requires you to sign in through its single sign-on.',
    SsoConnectionInvalid: "The identity provider's settings do not work. Check them and try again.",
    ssoEmail: 'Work email',
    ssoContinue: 'Continue with single sign-on',
  },
  es: {
    SsoConnectionNotFound: 'No hay inicio de sesión único para esa dirección. Inicia sesión de otra forma o consulta a tu organización.',
    SsoSignInError: 'El inicio de sesión de tu organización no se completó. Inténtalo de nuevo o consulta al administrador de tu organización.',
    SsoRequired: 'Tu organización exige que inicies sesión con su inicio de sesión único.',
    SsoConnectionInvalid: 'Los ajustes del proveedor de identidad no funcionan. Revísalos e inténtalo de nuevo.',
    ssoEmail: 'Correo del trabajo',
    ssoContinue: 'Continuar con inicio de sesión único',
  },
  fr: {
    SsoConnectionNotFound: "Aucune authentification unique n'est configurée pour cette adresse. Connectez-vous autrement ou contactez votre organisation.",
    SsoSignInError: "La connexion de votre organisation n'a pas abouti. Réessayez ou contactez l'administrateur de votre organisation.",
    SsoRequired: 'Votre organisation exige la connexion par son authentification unique.',
    SsoConnectionInvalid: "Les paramètres du fournisseur d'identité ne fonctionnent pas. Vérifiez-les et réessayez.",
    ssoEmail: 'E-mail professionnel',
    ssoContinue: "Continuer avec l'authentification unique",
  },
  de: {
    SsoConnectionNotFound: 'Für diese Adresse ist kein Single Sign-on eingerichtet. Melden Sie sich anders an oder fragen Sie Ihre Organisation.',
    SsoSignInError: 'Die Anmeldung Ihrer Organisation hat nicht geklappt. Versuchen Sie es erneut oder fragen Sie den Administrator Ihrer Organisation.',
    SsoRequired: 'Ihre Organisation verlangt die Anmeldung über ihr Single Sign-on.',
    SsoConnectionInvalid: 'Die Einstellungen des Identitätsanbieters funktionieren nicht. Prüfen Sie sie und versuchen Sie es erneut.',
    ssoEmail: 'Geschäftliche E-Mail',
    ssoContinue: 'Weiter mit Single Sign-on',
  },
  'pt-BR': {
    SsoConnectionNotFound: 'Não há login único configurado para esse endereço. Entre de outra forma ou fale com sua organização.',
    SsoSignInError: 'O login da sua organização não foi concluído. Tente de novo ou fale com o administrador da sua organização.',
    SsoRequired: 'Sua organização exige que você entre pelo login único dela.',
    SsoConnectionInvalid: 'As configurações do provedor de identidade não funcionam. Verifique-as e tente de novo.',
    ssoEmail: 'E-mail do trabalho',
    ssoContinue: 'Continuar com login único',
  },
  ja: {
    SsoConnectionNotFound: 'このアドレスにはシングルサインオンが設定されていません。別の方法でサインインするか、組織に問い合わせてください。',
    SsoSignInError: '組織のサインインが完了しませんでした。もう一度試すか、組織の管理者に問い合わせてください。',
    SsoRequired: 'この組織ではシングルサインオンでのサインインが必要です。',
    SsoConnectionInvalid: 'ID プロバイダーの設定が機能していません。確認してもう一度お試しください。',
    ssoEmail: '勤務先のメールアドレス',
    ssoContinue: 'シングルサインオンで続行',
  },
  'zh-Hans': {
    SsoConnectionNotFound: '此地址未设置单点登录。请用其他方式登录，或联系你的组织。',
    SsoSignInError: '你的组织登录未能完成。请重试，或联系组织管理员。',
    SsoRequired: '你的组织要求通过其单点登录进行登录。',
    SsoConnectionInvalid: '身份提供方的设置无效。请检查后重试。',
    ssoEmail: '工作邮箱',
    ssoContinue: '使用单点登录继续',
  },
  ar: {
    SsoConnectionNotFound: 'لم يُعدّ تسجيل دخول موحّد لهذا العنوان. سجّل الدخول بطريقة أخرى أو اسأل مؤسستك.',
    SsoSignInError: 'لم يكتمل تسجيل الدخول عبر مؤسستك. حاول مرة أخرى أو اسأل مسؤول مؤسستك.',
    SsoRequired: 'تشترط مؤسستك تسجيل الدخول عبر تسجيل الدخول الموحّد الخاص بها.',
    SsoConnectionInvalid: 'إعدادات موفّر الهوية لا تعمل. راجعها وحاول مرة أخرى.',
    ssoEmail: 'البريد الإلكتروني للعمل',
    ssoContinue: 'المتابعة بتسجيل الدخول الموحّد',
  },
  he: {
    SsoConnectionNotFound: 'לא הוגדרה כניסה אחידה לכתובת הזו. היכנסו בדרך אחרת או פנו לארגון שלכם.',
    SsoSignInError: 'הכניסה דרך הארגון שלכם לא הושלמה. נסו שוב או פנו למנהל הארגון.',
    SsoRequired: 'הארגון שלכם מחייב כניסה דרך הכניסה האחידה שלו.',
    SsoConnectionInvalid: 'ההגדרות של ספק הזהויות לא עובדות. בדקו אותן ונסו שוב.',
    ssoEmail: 'אימייל בעבודה',
    ssoContinue: 'המשך עם כניסה אחידה',
  },
}
