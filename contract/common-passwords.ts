// The passwords people pick most often (the top of the public breach-corpus rankings of the last years, written down
// by hand), kept to those of 8 characters or more since shorter ones are refused anyway. A cluster's admin password
// guards data reachable from the internet (spec §5 asks only for 8 characters): one of these falls to the first
// few guesses of any password list. Compared without case, so "Password1" is refused like "password1".
const LIST = `password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword pa55word pass1234 passpass
12345678 123456789 1234567890 12345678910 0123456789 87654321 987654321 9876543210 11111111 111111111 1111111111
00000000 000000000 22222222 55555555 66666666 666666666 77777777 88888888 99999999 12341234 11223344 12344321 123123123
12121212 13131313 69696969 123456789a a123456789 aa123456 aa12345678 abc12345 abcd1234 abcdefgh abcdefg1 1234abcd
qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 qwertyu1 1qaz2wsx zaq12wsx zaq1zaq1 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y
q1w2e3r4 q1w2e3r4t5 qazwsxedc qazwsx123 123qweasd 123qweasdzxc asdfghjk asdfghjkl asdfasdf zxcvbnm1 zxcvbnm123 zxcvbnml
iloveyou iloveyou1 iloveyou2 sunshine sunshine1 princess princess1 football football1 baseball baseball1 basketball
welcome1 welcome123 letmein1 letmein123 trustno1 superman superman1 whatever starwars starwars1 michael1 jennifer
computer corvette mercedes internet charlie1 changeme changeme1 changeit administrator admin123 admin1234 adminadmin
rootroot root1234 toor1234 default1 master12 mastermaster shadow12 monkey12 dragon12 dragon123
jordan23 michelle maverick michael7 jessica1 freedom1 chocolate butterfly 1password access14 blink182 liverpool
chelsea1 arsenal1 football12 soccer12 hunter12 hello123 helloworld hello1234 test1234 testtest testing1 testing123
guest123 user1234 login123 demo1234 database clickhouse clickhouse1 clickhouse123 yandex123 summer2024 summer2025
winter2024 winter2025 spring2025 autumn2025 december1 november1 password2024 password2025 password2026 company1
qwerty12345 asdf1234 zxcv1234 1qazxsw2 aaaaaaaa aaaaaaaaa aaaaaaaaaa zzzzzzzz xxxxxxxx loveyou1 lovelove 1234qwer
123abc123 abc123abc 123456abc abc123456 12qwaszx 147258369 159753456 741852963 789456123 123654789 147852369 q1w2e3r4t5y6`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter((word) => word !== ''));

/** True for a password from the list (any case), so it is refused at the field. */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
