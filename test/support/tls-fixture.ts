/**
 * A self-signed certificate for `localhost` and its key (P-256, valid for a hundred years), for tests that serve TLS
 * in process. Made once with `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
 * -subj /CN=localhost`; not a secret.
 */
export const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgzI1il/t/sGKWdQVa
MpHEALUxd29+EscsWM5sCOdD9RyhRANCAARbtnaScuiSogodVhwGHAUQyIh2/EL6
ZB+m1PmKkZfLhXKnfmAN2OjkO2MZai8q82Nr4YGRPvNZHSnM90eSFnft
-----END PRIVATE KEY-----
`;

export const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBfzCCASWgAwIBAgIUDA1oknIU2eYwxGxrBaH5bxqTkE8wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwNjE5MTkzOFoYDzIxMjYxMTEy
MTkxOTM4WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARbtnaScuiSogodVhwGHAUQyIh2/EL6ZB+m1PmKkZfLhXKnfmAN2Ojk
O2MZai8q82Nr4YGRPvNZHSnM90eSFnfto1MwUTAdBgNVHQ4EFgQUxsCCfvKkl/F0
wEyj/W4KXOEXvXUwHwYDVR0jBBgwFoAUxsCCfvKkl/F0wEyj/W4KXOEXvXUwDwYD
VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiApyoxTPIYcaKmo6ttH2d8j
bH90WhDho640Waouf7xOUwIhAKcYuoLWEYXRpRDPhRTzr3y+v3T7BvYrVJyYqjwF
swzp
-----END CERTIFICATE-----
`;
