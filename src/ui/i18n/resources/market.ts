import { defineResources } from '../defineResources.ts';

/**
 * Texts of the Market overview screen and the shared market components (SPEC §2, §3):
 * hot coins, top gainers, top volume, the USDT-M / Standard contract tabs, the asset
 * category tabs (favorites, crypto, commodity, stock, index), the column headers, the
 * search box, the favourites star and the socket connection indicator.
 *
 * Every language must carry exactly the keys of `en`: `defineResources` makes a
 * missing or extra key a type error.
 */
const en = {
  title: 'Markets',
  subtitle: 'Live prices of every futures contract',
  hotCoins: 'Hot coins',
  topGainers: 'Top gainers',
  topVolume: 'Top volume',

  'kind.perp': 'USDT-M Perpetual',
  'kind.std': 'Standard Futures',

  'cat.favorites': 'Favorites',
  'cat.crypto': 'Crypto',
  'cat.commodity': 'Commodities',
  'cat.stock': 'Stocks',
  'cat.index': 'Indices',

  'col.pair': 'Pair',
  'col.last': 'Last price',
  'col.change': '24h change',
  'col.high': '24h high',
  'col.low': '24h low',
  'col.volume': '24h turnover',
  'col.trend': 'Trend',
  'col.action': 'Action',

  search: 'Search symbol or name',
  'search.clear': 'Clear search',
  'sort.by': 'Sort by {{col}}',
  'fav.add': 'Add {{pair}} to favorites',
  'fav.remove': 'Remove {{pair}} from favorites',
  trade: 'Trade',
  empty: 'No matching contracts',
  'empty.favorites': 'No favorites yet: tap the star next to a contract to add it.',
  loading: 'Loading markets…',
  loadError: 'Could not load markets. Retrying…',

  'conn.live': 'Live',
  'conn.reconnecting': 'Reconnecting…',
  'conn.connecting': 'Connecting…',
} as const;

export type MarketKey = keyof typeof en;

const zh = {
  title: '行情',
  subtitle: '所有合约的实时价格',
  hotCoins: '热门币种',
  topGainers: '涨幅榜',
  topVolume: '成交额榜',

  'kind.perp': 'U 本位永续',
  'kind.std': '标准合约',

  'cat.favorites': '自选',
  'cat.crypto': '加密货币',
  'cat.commodity': '大宗商品',
  'cat.stock': '股票',
  'cat.index': '指数',

  'col.pair': '交易对',
  'col.last': '最新价',
  'col.change': '24小时涨跌',
  'col.high': '24小时最高',
  'col.low': '24小时最低',
  'col.volume': '24小时成交额',
  'col.trend': '走势',
  'col.action': '操作',

  search: '搜索代码或名称',
  'search.clear': '清除搜索',
  'sort.by': '按{{col}}排序',
  'fav.add': '将 {{pair}} 加入自选',
  'fav.remove': '将 {{pair}} 移出自选',
  trade: '交易',
  empty: '没有匹配的合约',
  'empty.favorites': '暂无自选：点击合约旁的星标即可添加。',
  loading: '正在加载行情…',
  loadError: '行情加载失败，正在重试…',

  'conn.live': '实时',
  'conn.reconnecting': '正在重新连接…',
  'conn.connecting': '正在连接…',
} as const;

const hk = {
  title: '行情',
  subtitle: '所有合約的即時價格',
  hotCoins: '熱門幣種',
  topGainers: '漲幅榜',
  topVolume: '成交額榜',

  'kind.perp': 'U 本位永續',
  'kind.std': '標準合約',

  'cat.favorites': '自選',
  'cat.crypto': '加密貨幣',
  'cat.commodity': '大宗商品',
  'cat.stock': '股票',
  'cat.index': '指數',

  'col.pair': '交易對',
  'col.last': '最新價',
  'col.change': '24小時漲跌',
  'col.high': '24小時最高',
  'col.low': '24小時最低',
  'col.volume': '24小時成交額',
  'col.trend': '走勢',
  'col.action': '操作',

  search: '搜尋代碼或名稱',
  'search.clear': '清除搜尋',
  'sort.by': '按{{col}}排序',
  'fav.add': '將 {{pair}} 加入自選',
  'fav.remove': '將 {{pair}} 移出自選',
  trade: '交易',
  empty: '沒有符合的合約',
  'empty.favorites': '暫無自選：點擊合約旁的星號即可加入。',
  loading: '正在載入行情…',
  loadError: '行情載入失敗，正在重試…',

  'conn.live': '即時',
  'conn.reconnecting': '正在重新連線…',
  'conn.connecting': '正在連線…',
} as const;

const jp = {
  title: 'マーケット',
  subtitle: 'すべての先物契約のリアルタイム価格',
  hotCoins: '人気銘柄',
  topGainers: '値上がり率ランキング',
  topVolume: '出来高ランキング',

  'kind.perp': 'USDT-M 無期限',
  'kind.std': '標準先物',

  'cat.favorites': 'お気に入り',
  'cat.crypto': '暗号資産',
  'cat.commodity': 'コモディティ',
  'cat.stock': '株式',
  'cat.index': '指数',

  'col.pair': '取引ペア',
  'col.last': '現在値',
  'col.change': '24時間変動率',
  'col.high': '24時間高値',
  'col.low': '24時間安値',
  'col.volume': '24時間売買代金',
  'col.trend': 'トレンド',
  'col.action': '操作',

  search: 'シンボルまたは名称で検索',
  'search.clear': '検索をクリア',
  'sort.by': '{{col}}で並べ替え',
  'fav.add': '{{pair}}をお気に入りに追加',
  'fav.remove': '{{pair}}をお気に入りから削除',
  trade: '取引',
  empty: '該当する契約はありません',
  'empty.favorites': 'お気に入りはまだありません。契約の横の星をタップして追加してください。',
  loading: 'マーケットを読み込み中…',
  loadError: 'マーケットを読み込めませんでした。再試行しています…',

  'conn.live': 'ライブ',
  'conn.reconnecting': '再接続中…',
  'conn.connecting': '接続中…',
} as const;

const ko = {
  title: '마켓',
  subtitle: '모든 선물 계약의 실시간 가격',
  hotCoins: '인기 코인',
  topGainers: '상승률 상위',
  topVolume: '거래량 상위',

  'kind.perp': 'USDT-M 무기한',
  'kind.std': '표준 선물',

  'cat.favorites': '즐겨찾기',
  'cat.crypto': '암호화폐',
  'cat.commodity': '원자재',
  'cat.stock': '주식',
  'cat.index': '지수',

  'col.pair': '거래쌍',
  'col.last': '현재가',
  'col.change': '24시간 변동',
  'col.high': '24시간 최고가',
  'col.low': '24시간 최저가',
  'col.volume': '24시간 거래대금',
  'col.trend': '추세',
  'col.action': '작업',

  search: '심볼 또는 이름 검색',
  'search.clear': '검색 지우기',
  'sort.by': '{{col}} 기준 정렬',
  'fav.add': '{{pair}}을(를) 즐겨찾기에 추가',
  'fav.remove': '{{pair}}을(를) 즐겨찾기에서 제거',
  trade: '거래',
  empty: '일치하는 계약이 없습니다',
  'empty.favorites': '즐겨찾기가 없습니다. 계약 옆의 별을 눌러 추가하세요.',
  loading: '시장 정보를 불러오는 중…',
  loadError: '시장 정보를 불러오지 못했습니다. 다시 시도하는 중…',

  'conn.live': '실시간',
  'conn.reconnecting': '재연결 중…',
  'conn.connecting': '연결 중…',
} as const;

/** The `market` namespace in all five languages. */
export const market = defineResources({ en, zh, hk, jp, ko });
