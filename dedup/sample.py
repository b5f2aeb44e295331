"""A synthetic petitions table with known duplicate groups.

Real petitions are personal data, so benchmarks and demos run on generated ones; the planted groups
are the ground truth that precision and recall are measured against. Only ``random.Random(seed)``
is used, so a (n_rows, seed, duplicate_share) triple always yields the same table.
"""

from __future__ import annotations

import bisect
import csv
import itertools
import os
import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["SampleTable", "generate_petitions", "write_sample_db", "write_truth_csv"]


@dataclass(frozen=True)
class SampleTable:
    rows: list[dict]
    truth: dict[int, int]


# ---------------------------------------------------------------------------------------------
# Vocabulary

_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴"
)
_COMPOUND_SURNAMES = ("欧阳", "司马", "上官", "诸葛", "东方", "皇甫")
_GIVEN = (
    "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂华建国志红玉梅金荣新利文斌宇浩凯健俊帆鹏辉峰"
    "晨欣怡婷雪琳晶颖佳慧敬德福海波亮成春秋冬云龙飞翔宏庆鑫淑珍凤娥琴嘉子涵梓萱雨泽思源博瑞天佑"
)

_DISTRICTS = (
    "东城区", "西城区", "江北区", "江南区", "滨江区", "高新区", "经开区", "城关区", "新城区", "南湖区",
    "北塘区", "西湖区", "青山区", "临江区", "望城区", "开福区",
)
_STREETS = (
    "城关街道", "新华街道", "人民路街道", "东风街道", "解放街道", "和平街道", "朝阳街道", "光明街道",
    "文化街道", "长安街道", "南门街道", "北关街道", "湖滨街道", "兴隆街道", "凤凰街道", "金桥街道",
    "龙泉街道", "石桥街道",
)
_COMMUNITIES = (
    "阳光花园", "幸福里小区", "翠苑小区", "锦绣家园", "金色港湾", "富康小区", "丽水佳园", "春江花月",
    "和谐家园", "紫荆苑", "枫林湾", "御景园", "东方明珠小区", "世纪城", "绿洲花园", "滨河小区",
    "建设新村", "纺织厂宿舍", "铁路新村", "康乐小区", "华府天地", "学府名苑", "碧桂园", "龙湖春天",
    "香樟苑", "怡景湾", "桃源居", "南苑小区", "清水湾", "盛世华庭",
)
_ROADS = (
    "人民路", "解放路", "建设路", "中山路", "和平路", "长江路", "黄河路", "幸福大道", "学府路", "新华路",
    "光明路", "胜利路", "文化路", "东风路", "朝阳路", "青年路", "滨江路", "工业路", "春风路", "振兴路",
    "迎宾大道", "北环路", "南环路", "西站路", "团结路",
)
_BRANDS = (
    "华泰", "鑫源", "宏达", "中天", "恒通", "金盛", "远大", "瑞丰", "嘉禾", "万隆", "天成", "永盛", "众合",
    "新康", "德信", "汇丰源", "盛达", "博远", "锦程", "兴业", "创美", "恒大利", "利民", "安居", "正阳",
    "腾飞", "和顺", "东升", "同创", "佳美",
)
_GENERIC_SUFFIXES = ("有限公司", "实业有限公司", "商贸有限公司")
_RIVERS = ("清水河", "小东河", "白沙河", "护城河", "南渠", "柳河", "金水河")
_MEDIA = ("本地电视台", "市晚报", "网络问政平台", "电台民生热线节目")
_SHOP_KINDS = ("超市", "便利店", "生鲜超市", "副食店", "购物中心", "农贸市场")
_SCHOOL_KINDS = ("实验小学", "中学", "外国语学校", "实验学校", "幼儿园", "小学")


@dataclass(frozen=True)
class _Topic:
    name: str
    subject: str
    weight: int
    suffixes: tuple[str, ...]
    titles: tuple[str, ...]
    problems: tuple[str, ...]
    demands: tuple[str, ...]
    short: tuple[str, ...]  # one-sentence petitions (< 20 characters) for the edge rows


_TOPICS = (
    _Topic(
        "物业管理", "物业服务", 12, ("物业服务有限公司", "物业管理有限公司"),
        ("{community}物业服务不到位问题", "投诉{brand}物业乱收费", "关于{community}物业不作为的投诉",
         "反映小区物业管理混乱问题", "要求更换{community}物业公司"),
        ("小区由{company}负责管理，物业费每平方米{fee}元，但服务质量与收费标准严重不符。",
         "小区电梯经常出故障，仅{month}月份就停运了{times}次，有一次还把老人困在里面{minutes}分钟。",
         "楼道里的垃圾经常好几天没人清理，夏天臭味很大，还招来很多蚊虫。",
         "物业擅自把小区公共绿地改成停车位对外出租，收益去向从来不公开。",
         "小区监控有一半以上是坏的，上个月{building}号楼接连发生了{times}起电动车被盗事件。",
         "物业在没有召开业主大会的情况下，将物业费从每平方米{fee}元上调到{fee2}元。",
         "我家卫生间楼上漏水，报修了{times}次，物业每次都说马上来，结果一直没人管。",
         "小区门禁形同虚设，外来人员随意进出，保安经常不在岗。",
         "业主委员会多次要求物业公开公共收益账目，物业一直以各种理由拒绝。"),
        ("要求物业公司按合同提供服务，公开公共收益收支明细。",
         "请房管部门对{company}的服务进行检查，必要时依法更换物业。",
         "要求物业立即维修电梯并退还多收的物业费。"),
        ("物业乱收费，请查处。", "小区物业不管事。"),
    ),
    _Topic(
        "噪音扰民", "噪音扰民", 10, ("建筑工程有限公司", "建设集团有限公司"),
        ("{community}夜间施工噪音扰民", "反映{road}烧烤店噪音问题", "楼上住户长期制造噪音",
         "关于广场舞噪音扰民的投诉", "{community}附近工地夜间施工扰民"),
        ("附近{company}的工地每天晚上施工到{hour}点以后，打桩机的声音震得窗户都在响。",
         "楼下新开了一家KTV，每天营业到凌晨{late_hour}点，音响声音非常大。",
         "小区广场每天傍晚都有人跳广场舞，音响开得很大，一跳就是{hours}个多小时。",
         "楼上住户经常在深夜拖动家具、敲打地板，我们上门沟通了{times}次都没有效果。",
         "{road}上的几家烧烤店把桌子摆到人行道上，深夜喝酒划拳，吵得人无法入睡。",
         "我用手机软件测过，晚上{hour}点的噪音达到了{db}分贝，远超国家规定的标准。",
         "小区旁边的商铺装修，电钻声从早上{early}点一直持续到晚上，周末也不停。",
         "高架桥上的大货车夜间通行，噪音和震动都很大，隔音屏障一直没有安装。"),
        ("请城管和环保部门依法查处夜间违规施工行为。",
         "要求相关商户规范经营时间，把噪音控制在标准以内。",
         "希望派出所出警时能够真正解决问题，而不是劝一劝就走。"),
        ("楼上噪音太大，影响休息。", "工地夜里施工太吵了。"),
    ),
    _Topic(
        "拖欠工资", "拖欠工资", 9, ("建筑劳务有限公司", "装饰工程有限公司", "电子科技有限公司", "餐饮管理有限公司"),
        ("反映{company}拖欠工资问题", "{brand}公司拖欠农民工工资", "请求帮助追讨被拖欠的工资",
         "关于讨要劳动报酬的求助", "{people}名工人工资被拖欠"),
        ("我从{date}开始在{company}上班，双方签了劳动合同，约定月工资{salary}元。",
         "公司已经连续{months}个月没有发工资了，累计拖欠我{amount}元。",
         "我们一共{people}名工人在{district}的一个工地干活，工程早已完工，但包工头一直拖着不给钱。",
         "每次去要工资，老板都说甲方没有结款，让我们再等等，一拖就是大半年。",
         "公司负责人从{date2}以后就不接电话了，公司办公室也已经人去楼空。",
         "我们手里有考勤记录和工资条，可以证明公司欠薪的事实。",
         "公司以效益不好为由，单方面扣发了我们{months}个月的绩效工资和加班费。",
         "我们大多是外地来打工的，眼看就要过年，没有工资连回家的路费都没有。"),
        ("请劳动监察部门督促{company}尽快足额支付拖欠的工资。",
         "希望有关部门帮助我们依法追讨劳动报酬，维护农民工合法权益。",
         "要求公司支付拖欠工资并依法支付经济补偿金。"),
        ("公司拖欠工资三个月了。", "老板欠薪跑路了。"),
    ),
    _Topic(
        "违章建筑", "违章建筑", 6, _GENERIC_SUFFIXES,
        ("{community}顶楼违章搭建问题", "举报{road}违法建筑", "关于小区违章建筑的举报",
         "一楼住户私自扩建院子问题", "要求拆除{community}违章建筑"),
        ("{community}{building}号楼顶楼住户在楼顶私自加盖了一层彩钢房，面积大约{area}平方米。",
         "一楼业主把自家院子用砖墙围起来，还搭建了阳光房，占用了公共绿地。",
         "{road}路边有人圈地建了几间简易房，用来堆放废品，存在很大的消防隐患。",
         "违建施工期间，楼顶的防水层被破坏，导致下面几户人家一下雨就漏水。",
         "我们向城管部门举报后，执法人员来贴了一张限期整改通知书，之后就不了了之。",
         "这个违建已经存在了{years}年多，现在还在继续扩建，周围邻居都很有意见。",
         "有人在小区消防通道上搭建了车棚，消防车根本开不进来。",
         "违建挡住了我家窗户的采光，白天屋里都要开灯。"),
        ("请城管执法部门依法拆除违章建筑，恢复原状。",
         "要求相关部门调查违建背后是否存在包庇纵容问题。",
         "希望尽快清理消防通道上的违建，消除安全隐患。"),
        ("楼顶有人私搭乱建。",),
    ),
    _Topic(
        "道路破损", "道路破损", 6, ("市政工程有限公司", "管道工程有限公司"),
        ("{road}路面坑洼严重问题", "反映{road}道路破损问题", "{district}{road}路面塌陷",
         "小区门口道路年久失修", "关于{road}井盖缺失的反映"),
        ("{road}从{road2}路口到{community}门口这一段路面坑坑洼洼，最深的坑有{depth}厘米左右。",
         "下雨天路面积水严重，行人只能踩着砖头过路，电动车经过时溅得人一身泥。",
         "前几天晚上有一位老人骑电动车经过时摔倒，腿部骨折住进了医院。",
         "路边有{num}个井盖缺失或者破损，只用几块木板简单盖着，非常危险。",
         "这条路是附近{school}学生上学的必经之路，每天早晚都有很多家长接送孩子。",
         "去年{company}挖开路面铺设管道，完工后只是草草回填，没有恢复原来的路面。",
         "路面已经出现了一条长约{length}米的裂缝，并且有下沉的趋势。",
         "人行道的地砖大面积松动翘起，一踩就溅出泥水。"),
        ("请市政部门尽快组织维修，消除安全隐患。",
         "要求管线施工单位按规定恢复路面，并追究其责任。",
         "希望在维修前先设置警示标志，防止再发生事故。"),
        ("小区门口路面破损严重。", "路上井盖丢了。"),
    ),
    _Topic(
        "环境污染", "环境污染", 7, ("化工有限公司", "建材有限公司", "塑料制品有限公司"),
        ("{brand}化工排放废气污染环境", "反映{district}河道污染问题", "工厂偷排污水问题举报",
         "关于{road}餐饮油烟污染的投诉", "{community}附近焚烧垃圾问题"),
        ("小区附近的{company}每天晚上偷偷排放废气，气味刺鼻，居民根本不敢开窗。",
         "工厂的排污管直接通到{river}，河水发黑发臭，岸边经常能看到死鱼。",
         "楼下餐馆的油烟管道没有安装净化设备，油烟直接排到居民楼里。",
         "有人在{community}后面的空地上焚烧垃圾，浓烟滚滚，已经持续了{weeks}周。",
         "附近搅拌站粉尘污染非常严重，家里的窗台每天都能擦出一层灰。",
         "我们怀疑这家企业的环评手续不全，生产时的噪声和粉尘都没有治理。",
         "最近小区里咳嗽、咽喉发炎的老人和孩子明显增多，大家都很担心。",
         "环保部门白天来检查时工厂就停工，等检查人员一走又开始生产。"),
        ("请生态环境部门进行夜间突击检查，依法查处违法排污行为。",
         "要求企业立即停止排污，并对受污染的河道进行治理。",
         "希望公开检测数据，让周边居民放心。"),
        ("饭店油烟扰民，请处理。", "河水发黑发臭。"),
    ),
    _Topic(
        "拆迁补偿", "拆迁补偿", 5, ("置业有限公司", "城市建设投资有限公司"),
        ("关于{street}拆迁补偿不合理的反映", "{community}征收补偿标准问题", "拆迁安置房迟迟不能交付",
         "反映拆迁过程中强拆问题", "请求落实拆迁补偿款"),
        ("我家位于{district}{street}的房屋被列入征收范围，房屋面积{area}平方米。",
         "征收方给出的补偿标准是每平方米{price}元，远低于周边同类房屋的市场价格。",
         "按照协议，安置房应当在{date}交付，现在已经逾期{months}个月，仍然没有交房的消息。",
         "在协议还没有签订的情况下，有人趁我们外出时把房子推倒了，屋里的东西全部被埋。",
         "过渡期安置费从去年开始就停发了，我们一家{family}口人只能自己租房住。",
         "评估公司的评估报告我们一直没有见到，要求查看也被拒绝。",
         "同一排的邻居补偿面积比我家多了{area2}平方米，标准前后不一致。",
         "拆迁办的工作人员多次上门做工作，态度粗暴，还威胁说不签字就什么都拿不到。"),
        ("请求依法公开征收补偿方案和评估报告。",
         "要求按照政策足额支付补偿款和过渡安置费。",
         "希望纪检部门调查拆迁过程中的违规行为。"),
        ("拆迁补偿款还没给。",),
    ),
    _Topic(
        "医疗纠纷", "医疗纠纷", 5, ("医疗管理有限公司",),
        ("反映{hospital}医疗事故问题", "对{hospital}诊疗过程的投诉", "关于医院乱收费的反映",
         "请求对医疗纠纷进行调解", "{hospital}医生服务态度恶劣"),
        ("我母亲于{date}因腹痛到{hospital}就诊，当时被诊断为普通肠胃炎。",
         "由于医生没有及时做进一步检查，病情被延误，后来转院才确诊为急性阑尾炎穿孔。",
         "出院结算时发现费用清单上有很多项目根本没有做过，总共多收了{amount}元。",
         "手术后出现了严重的并发症，医院一直不肯说明原因，也拒绝提供完整病历。",
         "急诊室等了{hours}个多小时都没有医生接诊，护士的态度非常冷漠。",
         "医生在没有告知风险的情况下，让我们签字做了一项自费检查，花了{amount2}元。",
         "事发后我们多次找医院医务科协商，对方只是推脱说要等鉴定结果。",
         "现在病人还在家里休养，每个月的医药费就要好几千元。"),
        ("请卫生健康部门介入调查，查明事实，依法处理。",
         "要求医院退还不合理收费，并赔偿相应损失。",
         "希望启动医疗纠纷人民调解程序。"),
        ("医院乱收费，请核查。",),
    ),
    _Topic(
        "教育收费", "教育收费", 5, ("教育咨询有限公司", "文化传播有限公司"),
        ("{school}违规收费问题", "反映{school}乱收费", "关于学校强制订购教辅资料的投诉",
         "幼儿园保育费上涨过高问题", "{school}课后服务收费不透明"),
        ("{school}以课后服务的名义向每个学生收取{fee_school}元，家长并不知道这笔钱的具体用途。",
         "班主任在家长群里要求统一购买指定的教辅资料，每套{price_small}元，不买就不让上课。",
         "学校食堂的伙食费每月{price_meal}元，但孩子回家说饭菜质量很差，经常吃不饱。",
         "幼儿园今年突然把保育费从每月{fee_k}元涨到{fee_k2}元，事先没有任何通知。",
         "学校要求统一购买校服，一套要{price_small}元，质量却很一般。",
         "老师在校外开办补习班，暗示学生去参加，不去的孩子在班上受到区别对待。",
         "我们向学校询问收费依据，学校只是说这是教育局批准的，但拿不出批准文件。",
         "学校收了费却不开收据，也没有进行收费公示。"),
        ("请教育主管部门核查学校收费是否合规，退还违规收取的费用。",
         "要求学校公开收费项目和标准，接受家长监督。",
         "希望严肃查处教师有偿补课行为。"),
        ("学校强制买教辅。",),
    ),
    _Topic(
        "食品安全", "食品安全", 5, ("餐饮管理有限公司", "食品有限公司"),
        ("{shop}销售过期食品问题", "举报{road}无证餐饮店", "反映学校食堂食品安全问题",
         "关于{shop}食品质量的投诉", "外卖餐品吃出异物的投诉"),
        ("我于{date}在{shop}购买了一箱牛奶，回家后发现已经过期{days}天了。",
         "{road}上有一家小吃店没有营业执照，后厨卫生条件非常差，老鼠到处跑。",
         "我们一家{family}口人在{road}一家饭店吃完饭后，晚上都出现了呕吐、腹泻的症状。",
         "在外卖平台上点的餐里吃出了一根钢丝，商家只愿意退款，拒绝其他赔偿。",
         "市场里有摊贩用来源不明的冷冻肉冒充新鲜肉销售，价格比别处便宜很多。",
         "我们找商家理论，商家说是进货渠道的问题，与他们无关。",
         "孩子所在学校的食堂有学生吃了午饭后集体拉肚子，学校却对家长隐瞒情况。",
         "购物小票和过期商品我都保留着，可以作为证据提供。"),
        ("请市场监管部门依法查处，没收不合格食品。",
         "要求商家按照食品安全法给予赔偿。",
         "希望加强对校园食堂和周边餐饮的监督检查。"),
        ("超市卖过期牛奶。",),
    ),
    _Topic(
        "交通出行", "交通出行", 6, ("公共交通有限公司",),
        ("{bus}路公交车发车间隔太长", "{road}路口红绿灯设置不合理", "反映{community}附近乱停车问题",
         "关于增设公交站点的建议", "{road}早晚高峰交通拥堵问题"),
        ("{bus}路公交车高峰期要等{minutes}分钟以上才来一班，车上挤得连站的地方都没有。",
         "{road}与{road2}交叉口的红绿灯只有{seconds}秒的绿灯时间，行人根本来不及通过。",
         "小区门口的道路两侧常年停满了车，消防车和救护车都进不来。",
         "附近新建了好几个小区，居民有上万人，但方圆两公里内都没有公交站。",
         "每天早上七点到九点，{road}都堵得水泄不通，短短一公里要开半个小时。",
         "有的网约车和出租车在路口随意停车上下客，造成交通混乱。",
         "{school}门口没有设置人行横道和减速带，车辆车速很快，孩子过马路很危险。",
         "共享单车在地铁站出口堆得满满当当，行人只能走到机动车道上。"),
        ("建议公交公司增加{bus}路的车辆，缩短发车间隔。",
         "请交警部门优化路口信号灯配时，加强违停治理。",
         "希望在学校门口增设人行横道和减速带。"),
        ("公交车太难等了。",),
    ),
    _Topic(
        "供水供电", "停水停电", 6, ("供水有限公司", "电力工程有限公司"),
        ("{community}频繁停水问题", "反映{community}经常停电问题", "自来水水质浑浊发黄问题",
         "关于小区水压不足的反映", "{community}电压不稳问题"),
        ("最近一个月{community}停水了{times}次，每次都没有提前通知，居民生活非常不便。",
         "打开水龙头流出来的自来水发黄浑浊，烧开后壶底有一层厚厚的水垢。",
         "我们住在{floor}楼，水压不够，白天经常没水，只能半夜起来接水。",
         "小区每到用电高峰就跳闸停电，夏天空调都开不了，老人热得受不了。",
         "供电公司说是小区变压器容量不足，但一直没有进行增容改造。",
         "电压不稳定已经烧坏了我家的冰箱和电视机，损失{amount}元左右。",
         "二次供水水箱多年没有清洗，物业说清洗费用应该由业主分摊。",
         "打电话给供水公司，客服说会安排人员检修，但{days}天过去了还没有人来。"),
        ("请供水公司尽快排查管网，保障正常供水和水质安全。",
         "要求供电部门对小区变压器进行增容改造。",
         "希望停水停电前能够提前通知居民。"),
        ("小区频繁停水。", "家里又停电了。"),
    ),
    _Topic(
        "社保医保", "社保医保", 5, ("电子科技有限公司", "商贸有限公司", "物流有限公司"),
        ("社保缴费年限认定问题", "反映{brand}公司未缴纳社保", "医保报销比例问题咨询",
         "关于养老金待遇减少的反映", "异地就医医保报销困难"),
        ("我在{company}工作了{years}年，最近查询才发现公司一直没有给我缴纳社会保险。",
         "我今年{age}岁，按规定应该可以办理退休，但社保部门说我有{gap}年的缴费记录缺失。",
         "我母亲在外地住院花了{amount}元，回来报销时因为没有提前办理备案，只报了很少一部分。",
         "公司按照最低基数给我们缴纳社保，而不是按照实际工资缴纳。",
         "我多次到{district}社保中心窗口咨询，每次都让补材料，前后跑了{times}趟。",
         "我的养老金从今年起突然每月减少了{pension}元，也没有人给出解释。",
         "医保卡里的钱被药店用来刷生活用品，我怀疑个人信息被盗用了。",
         "我是灵活就业人员，想补缴之前中断的社保，但网上办理系统一直提示无法办理。"),
        ("请社保部门核实我的缴费记录，依法为我办理相关手续。",
         "要求用人单位依法为职工补缴社会保险。",
         "希望简化异地就医备案和报销流程。"),
        ("公司不给交社保。",),
    ),
    _Topic(
        "户籍办理", "户籍办理", 4, _GENERIC_SUFFIXES,
        ("孩子落户办理困难问题", "反映户口迁移手续繁琐", "关于{street}派出所办事效率的投诉",
         "居民身份证补办困难问题", "人才引进落户迟迟未办理"),
        ("我家孩子{date}出生，去{street}派出所办理出生登记时被要求提供各种证明材料。",
         "我已经在本市购房并缴纳社保{years}年，符合落户条件，但申请材料提交后一直没有回音。",
         "为了开一张证明，我在派出所、社区和单位之间来回跑了{times}次。",
         "窗口工作人员态度冷淡，问什么都不耐烦，也不一次性告知需要哪些材料。",
         "我的户口迁移证已经过期，派出所说需要回原籍重新开具，路途遥远非常不便。",
         "网上预约系统显示可以办理，到现场却说系统故障，让我改天再来。",
         "我是通过人才引进政策来的，当时承诺半年内解决落户问题，现在已经{months}个月了。",
         "孩子没有户口，马上就要上小学了，入学报名受到影响。"),
        ("请公安机关依法依规尽快为我办理户籍手续。",
         "希望落实一次性告知制度，减少群众跑腿。",
         "要求对窗口工作人员的服务态度进行整改。"),
        ("孩子落户办不下来。",),
    ),
    _Topic(
        "消费纠纷", "消费纠纷", 7, ("健身服务有限公司", "教育咨询有限公司", "装饰设计有限公司", "美容美发有限公司"),
        ("{brand}健身办卡后拒绝退费", "反映{company}预付卡跑路问题", "网购商品质量问题投诉",
         "关于装修公司违约停工的投诉", "健身房突然关门无法退款"),
        ("我于{date}在{company}办了一张会员卡，充值{amount}元，现在门店突然关门了。",
         "店里还有{many}多名会员的卡内余额没有用完，老板电话已经打不通了。",
         "我在网上买了一台空调，收到货后发现是翻新机，商家拒绝退换。",
         "装修公司收了我{amount2}元的预付款，施工了不到一个月就停工了。",
         "销售人员在推销时做了很多口头承诺，签合同之后全部不认账。",
         "我向消费者协会投诉后，商家答应退款，但至今一分钱也没有退。",
         "合同中有很多霸王条款，比如规定无论什么原因一律不退款。",
         "商家以各种理由拖延，先说要总部审批，后来又说财务在走流程。"),
        ("请市场监管部门督促商家退还剩余款项。",
         "要求商家按照消费者权益保护法承担退一赔三的责任。",
         "希望加强对预付卡经营行为的监管。"),
        ("健身房跑路，无法退费。",),
    ),
    _Topic(
        "房屋质量", "房屋质量", 4, ("房地产开发有限公司", "置业有限公司"),
        ("{community}新房质量问题", "反映开发商交房质量问题", "关于房屋墙体开裂的投诉",
         "{brand}置业逾期交房问题"),
        ("我在{company}开发的{community}购买了一套商品房，{date}交房后就发现了很多质量问题。",
         "客厅和卧室的墙面出现了多条裂缝，最宽的地方能塞进一张卡片。",
         "每逢下雨，阳台和窗户边就开始渗水，墙皮大面积脱落。",
         "实际交付的房屋与宣传资料严重不符，承诺的小区配套设施一样也没有兑现。",
         "合同约定的交房日期是{date2}，开发商逾期{months}个月才交房，却拒绝支付违约金。",
         "我们多次联系开发商维修，对方只是派人简单刷一下涂料，根本不解决问题。",
         "房产证迟迟办不下来，孩子上学要用，我们非常着急。",
         "小区的地下车库经常渗水，墙面长满了霉斑。"),
        ("请住建部门对房屋质量进行检测鉴定。",
         "要求开发商履行保修义务，彻底修复质量问题。",
         "要求开发商按照合同约定支付逾期交房违约金。"),
        ("新房墙面开裂漏水。",),
    ),
)
_TOPIC_CUMULATIVE = tuple(itertools.accumulate(t.weight for t in _TOPICS))

_OPENINGS = (
    "我是{district}{street}{community}的居民，现就{subject}问题向有关部门反映情况。",
    "本人家住{district}{community}{building}号楼，在此居住已有{years}年。",
    "我们是{district}{community}的业主，代表{people}户居民反映一个长期没有解决的问题。",
    "我是一名普通市民，平时在{district}{street}一带生活和工作。",
    "我于{date}遇到一件烦心事，至今没有得到妥善解决，特此反映。",
    "现将有关{subject}的情况反映如下，请领导在百忙之中予以关注。",
    "我是外地来本市务工的人员，在{district}已经工作了{years}年。",
    "自{date}以来，我们{community}的居民一直被{subject}问题困扰。",
    "本人已经退休，住在{district}{road}{house_no}号。",
    "我和家人租住在{district}{community}，这个情况房东和邻居都清楚。",
)
_IMPACTS = (
    "这件事已经严重影响了我们的正常生活，家里老人孩子都苦不堪言。",
    "因为这个问题，我连续{weeks}周睡不好觉，身体和精神都受到很大影响。",
    "周边{many}多户居民都有同样的遭遇，大家意见很大。",
    "家里经济本来就困难，出了这件事以后更是雪上加霜。",
    "很多邻居已经开始在业主群里议论，担心问题越拖越严重。",
    "我的孩子正在准备考试，这种情况对学习影响非常大。",
    "老人有高血压和心脏病，一着急就犯病，我们很担心出意外。",
    "这已经不是个别现象，附近好几个小区都存在类似问题。",
)
_ACTIONS = (
    "我曾于{date}拨打12345市民热线反映，工单编号{ticket}，但至今没有实质性进展。",
    "我们多次找到{street}办事处，工作人员说会协调处理，之后就没有了下文。",
    "{date2}我去{district}信访接待中心当面反映过一次，被告知回去等通知。",
    "社区居委会也来看过，但表示没有执法权，只能向上级反映。",
    "我们还向{media}反映过，记者来拍了视频，可是问题依旧没有解决。",
    "我在网上问政平台留言{times}次，回复都是正在处理中。",
    "我们也尝试过和对方协商，但对方态度非常强硬，拒不配合。",
    "找过相关主管部门，各部门之间互相推诿，谁都说不归自己管。",
    "前后折腾了{months}个月，跑了不下{times}趟，问题还是原地踏步。",
)
_DEMANDS = (
    "恳请有关部门尽快介入调查，依法依规处理。",
    "希望领导高度重视，责成相关单位在{days}日内给出明确答复。",
    "请求政府部门主持公道，维护我们的合法权益。",
    "希望能派人实地查看，切实解决群众的实际困难。",
    "如果问题仍得不到解决，我们将继续向上级部门反映。",
    "请相关部门督促整改，并将处理结果及时告知我们。",
    "希望有关部门建立长效机制，避免类似问题再次发生。",
    "恳请领导百忙之中抽空过问此事，我们全体居民不胜感激。",
)
_CLOSINGS = (
    "以上情况属实，本人愿意承担相应责任。",
    "联系电话见登记信息，随时可以配合调查。",
    "特此反映，盼复。",
    "谢谢！",
    "望早日答复为盼。",
    "以上反映内容如有不实，愿承担法律责任。",
)

# Edits applied to the copies in a planted group.
_FOLLOW_UPS = (
    "这是我第二次反映这个问题，希望尽快处理。",
    "这是我第三次反映了，请尽快处理。",
    "之前已经反映过一次，至今没有答复。",
    "再次恳请领导重视！",
    "此前已通过12345热线反映，一直没有结果。",
    "请尽快给予答复，谢谢！",
)
_GREETINGS = ("领导您好！", "尊敬的领导：", "您好，", "各位领导好！", "尊敬的市长：", "领导好，")
_HOMOPHONES = (
    ("在", "再"), ("再", "在"), ("的", "得"), ("的", "地"), ("已经", "以经"), ("做", "作"),
    ("像", "象"), ("反映", "反应"), ("哪", "那"), ("需要", "须要"), ("其他", "其它"), ("账", "帐"),
    ("部分", "部份"), ("即使", "既使"), ("必须", "必需"),
)
_PUNCT_TO_HALF = str.maketrans({"，": ",", "。": ".", "；": ";", "：": ":", "！": "!", "？": "?",
                                "（": "(", "）": ")", "、": ","})
_COMMA_TO_HALF = str.maketrans({"，": ","})
_DIGIT_RUN = re.compile(r"[0-9]+")
_DIGITS_TO_FULL = str.maketrans({chr(c): chr(c + 0xFEE0) for c in range(ord("0"), ord("9") + 1)})

_FULLWIDTH_SENTENCES = (
    "我在政务服务ＡＰＰ上提交过诉求，受理编号为ＳＨ{ticket}，客服让我再用微信小程序或者APP查询进度。",
    "小区的ＷｉＦｉ和门禁系统都是{company}负责的，他们的ＣＥＯ说这事不归他们管，WiFi至今没修好。",
    "对方发来的短信写着“ＶＩＰ客户专享”，还附了一个以ｗｗｗ开头的网址，点开后要求填写身份证号和QQ号。",
)


# ---------------------------------------------------------------------------------------------
# Slot values, made on first use so each petition only draws what its sentences need


# random.Random.choice/randint are several Python calls deep; these keep 100k rows to a few seconds.
def _pick(rng: random.Random, seq):
    return seq[int(rng.random() * len(seq))]


def _int(rng: random.Random, a: int, b: int) -> int:
    return a + int(rng.random() * (b - a + 1))


def _sample(rng: random.Random, seq, k: int) -> list:
    items = list(seq)
    n = len(items)
    for i in range(k):
        j = i + int(rng.random() * (n - i))
        items[i], items[j] = items[j], items[i]
    return items[:k]


def _date(rng: random.Random) -> str:
    return f"{_int(rng, 2021, 2023)}年{_int(rng, 1, 12)}月{_int(rng, 1, 28)}日"


def _school(rng: random.Random) -> str:
    if rng.random() < 0.4:
        return f"第{_int(rng, 1, 40)}中学"
    return _pick(rng, _BRANDS) + _pick(rng, _SCHOOL_KINDS)


def _hospital(rng: random.Random) -> str:
    kind = rng.randrange(3)
    if kind == 0:
        return f"市第{_int(rng, 1, 9)}人民医院"
    if kind == 1:
        return _pick(rng, _DISTRICTS) + "人民医院"
    return _pick(rng, _BRANDS) + _pick(rng, ("口腔诊所", "中医院", "妇产医院", "骨科医院"))


_SLOT_MAKERS = {
    "district": lambda r, s: _pick(r, _DISTRICTS),
    "street": lambda r, s: _pick(r, _STREETS),
    "community": lambda r, s: _pick(r, _COMMUNITIES),
    "road": lambda r, s: _pick(r, _ROADS),
    "road2": lambda r, s: _pick(r, [x for x in _ROADS if x != s["road"]]),
    "building": lambda r, s: _int(r, 1, 30),
    "house_no": lambda r, s: _int(r, 1, 300),
    "floor": lambda r, s: _int(r, 6, 33),
    "brand": lambda r, s: _pick(r, _BRANDS),
    "company": lambda r, s: s["brand"] + _pick(r, s.topic.suffixes),
    "subject": lambda r, s: s.topic.subject,
    "date": lambda r, s: _date(r),
    "date2": lambda r, s: _date(r),
    "month": lambda r, s: _int(r, 1, 12),
    "times": lambda r, s: _int(r, 2, 9),
    "minutes": lambda r, s: _int(r, 10, 50),
    "hours": lambda r, s: _int(r, 2, 5),
    "hour": lambda r, s: _int(r, 22, 23),
    "late_hour": lambda r, s: _int(r, 1, 3),
    "early": lambda r, s: _int(r, 6, 7),
    "db": lambda r, s: _int(r, 62, 88),
    "fee": lambda r, s: f"{_int(r, 12, 35) / 10:.1f}",
    "fee2": lambda r, s: f"{float(s['fee']) + _int(r, 3, 15) / 10:.1f}",
    "salary": lambda r, s: _int(r, 35, 120) * 100,
    "amount": lambda r, s: _int(r, 20, 1500) * 100,
    "amount2": lambda r, s: _int(r, 8, 400) * 100 + _pick(r, (0, 50)),
    "people": lambda r, s: _int(r, 10, 300),
    "many": lambda r, s: _int(r, 2, 30) * 10,
    "family": lambda r, s: _int(r, 3, 6),
    "years": lambda r, s: _int(r, 2, 20),
    "months": lambda r, s: _int(r, 2, 18),
    "weeks": lambda r, s: _int(r, 2, 8),
    "days": lambda r, s: _int(r, 3, 30),
    "area": lambda r, s: _int(r, 20, 200),
    "area2": lambda r, s: _int(r, 5, 30),
    "price": lambda r, s: _int(r, 60, 250) * 100,
    "depth": lambda r, s: _int(r, 10, 40),
    "num": lambda r, s: _int(r, 2, 8),
    "length": lambda r, s: _int(r, 10, 80),
    "seconds": lambda r, s: _int(r, 10, 25),
    "bus": lambda r, s: _int(r, 1, 300),
    "age": lambda r, s: _int(r, 55, 65),
    "gap": lambda r, s: _int(r, 1, 5),
    "pension": lambda r, s: _int(r, 100, 800),
    "fee_school": lambda r, s: _int(r, 3, 20) * 100,
    "price_small": lambda r, s: _int(r, 80, 600),
    "price_meal": lambda r, s: _int(r, 300, 800),
    "fee_k": lambda r, s: _int(r, 12, 25) * 100,
    "fee_k2": lambda r, s: int(s["fee_k"]) + _int(r, 3, 15) * 100,
    "river": lambda r, s: _pick(r, _RIVERS),
    "media": lambda r, s: _pick(r, _MEDIA),
    "ticket": lambda r, s: f"{_int(r, 2021, 2023)}{_int(r, 0, 99_999_999):08d}",
    "school": lambda r, s: _school(r),
    "hospital": lambda r, s: _hospital(r),
    "shop": lambda r, s: _pick(r, _BRANDS) + _pick(r, _SHOP_KINDS),
}


class _Slots(dict):
    def __init__(self, rng: random.Random, topic: _Topic, **known):
        super().__init__(known)
        self.rng = rng
        self.topic = topic

    def __missing__(self, key):
        value = _SLOT_MAKERS[key](self.rng, self)
        self[key] = value
        return value


# ---------------------------------------------------------------------------------------------
# People and petitions


def _name(rng: random.Random) -> str:
    surname = _pick(rng, _COMPOUND_SURNAMES) if rng.random() < 0.02 else _pick(rng, _SURNAMES)
    given = _pick(rng, _GIVEN) if rng.random() < 0.3 else _pick(rng, _GIVEN) + _pick(rng, _GIVEN)
    return surname + given


def _phone(rng: random.Random) -> str:
    return f"1{_pick(rng, '358')}{rng.randrange(10)}{rng.randrange(100_000_000):08d}"


_PLACE_KEYS = ("district", "street", "community", "building")


def _person(rng: random.Random, near: dict | None = None) -> dict:
    """A petitioner; with ``near``, a neighbour in the same community (collective complaints)."""
    if near is None:
        place = {"district": _pick(rng, _DISTRICTS), "street": _pick(rng, _STREETS)}
        if rng.random() < 0.7:
            place["community"] = _pick(rng, _COMMUNITIES)
    else:
        place = {k: near[k] for k in ("district", "street", "community") if k in near}
    if "community" in place:
        place["building"] = _int(rng, 1, 30)
        spot = f"{place['community']}{place['building']}栋{_int(rng, 1, 4)}单元{_int(rng, 1, 28)}0{_int(rng, 1, 4)}室"
    else:
        spot = f"{_pick(rng, _ROADS)}{_int(rng, 1, 300)}号"
    return {**place, "name": _name(rng), "phone": _phone(rng),
            "address": f"{place['district']}{place['street']}{spot}"}


def _compose(rng: random.Random, topic: _Topic, slots: _Slots) -> str:
    middle = _sample(rng, topic.problems, _int(rng, 2, 5))
    extras = _sample(rng, _IMPACTS, _int(rng, 0, 2)) + _sample(rng, _ACTIONS, _int(rng, 0, 3))
    extras = _sample(rng, extras, len(extras))
    head = [_pick(rng, _OPENINGS)] if rng.random() < 0.75 else []
    tail = _sample(rng, topic.demands + _DEMANDS, _int(rng, 1, 2))
    if rng.random() < 0.35:
        tail.append(_pick(rng, _CLOSINGS))
    while len(head) + len(middle) + len(extras) + len(tail) < 4:
        extras.append(_pick(rng, [s for s in _IMPACTS if s not in extras]))
    while len(head) + len(middle) + len(extras) + len(tail) > 10:
        extras.pop()
    return "".join(s.format_map(slots) for s in head + middle + extras + tail)


def _petition(rng: random.Random, person: dict | None, min_len: int = 0) -> dict:
    topic = _TOPICS[bisect.bisect(_TOPIC_CUMULATIVE, rng.random() * _TOPIC_CUMULATIVE[-1])]
    known = {} if person is None else {k: person[k] for k in _PLACE_KEYS if k in person}
    slots = _Slots(rng, topic, **known)
    title = _pick(rng, topic.titles).format_map(slots)
    content = _compose(rng, topic, slots)
    while len(content) < min_len:
        content += _pick(rng, _IMPACTS + _ACTIONS).format_map(slots)
    return {"category": topic.name, "title": title, "content": content}


def _person_fields(rng: random.Random, person: dict, missing_rate: float = 0.02) -> dict:
    """name/phone/address, each occasionally left blank as anonymous petitions are."""
    return {k: (None if rng.random() < missing_rate else person[k]) for k in ("name", "phone", "address")}


# ---------------------------------------------------------------------------------------------
# Edits that turn a base petition into a near-duplicate copy


def _width_edit(rng: random.Random, text: str) -> str:
    kind = rng.randrange(3)
    runs = [m.span() for m in _DIGIT_RUN.finditer(text)] if kind == 0 else []
    if runs:  # one or two numbers typed in full-width mode
        for a, b in sorted(_sample(rng, runs, min(len(runs), _int(rng, 1, 2))), reverse=True):
            text = text[:a] + text[a:b].translate(_DIGITS_TO_FULL) + text[b:]
        return text
    if kind == 1:
        return text.translate(_COMMA_TO_HALF)
    return text.translate(_PUNCT_TO_HALF)


def _whitespace_edit(rng: random.Random, text: str) -> str:
    kind = rng.randrange(4)
    if kind == 0:  # line breaks after some sentences
        parts = text.split("。")
        for i in _sample(rng, range(1, len(parts)), min(3, len(parts) - 1)):
            parts[i] = _pick(rng, ("\n", "\r\n", "\n\n")) + parts[i]
        return "。".join(parts)
    if kind == 1:  # stray spaces
        chars = list(text)
        for i in sorted(_sample(rng, range(len(chars)), min(3, len(chars))), reverse=True):
            chars.insert(i, _pick(rng, (" ", "  ", "\u3000")))
        return "".join(chars)
    if kind == 2:
        return _pick(rng, ("  ", "\n", "\u3000\u3000")) + text + _pick(rng, (" ", "\n", "\r\n", ""))
    return text.replace("，", _pick(rng, ("， ", " ，")), _int(rng, 1, 4))


def _homophone_edit(rng: random.Random, text: str) -> str | None:
    present = [(a, b) for a, b in _HOMOPHONES if a in text]
    if not present:
        return None
    old, new = _pick(rng, present)
    spots, i = [], text.find(old)
    while i >= 0:
        spots.append(i)
        i = text.find(old, i + 1)
    at = _pick(rng, spots)
    return text[:at] + new + text[at + len(old):]


def _copy(rng: random.Random, base: dict, collective: bool) -> dict:
    row = {k: base[k] for k in ("name", "phone", "address", "category", "title", "content")}
    if collective:
        person = _person(rng, near=base["_person"])
        row.update(name=person["name"], phone=person["phone"], address=person["address"])
        edits = _sample(rng, ("width", "space"), _pick(rng, (0, 1, 1)))
    else:
        edits = _sample(rng, ("width", "space", "append", "prepend", "homophone", "drop"), _pick(rng, (1, 1, 2)))
    text = row["content"]
    for edit in edits:
        if edit == "width":
            text = _width_edit(rng, text)
            row["title"] = row["title"].translate(_PUNCT_TO_HALF)
        elif edit == "space":
            text = _whitespace_edit(rng, text)
        elif edit == "append":
            text = text + _pick(rng, _FOLLOW_UPS)
        elif edit == "prepend":
            text = _pick(rng, _GREETINGS) + text
        elif edit == "homophone":
            text = _homophone_edit(rng, text) or _whitespace_edit(rng, text)
        else:
            row[_pick(rng, ("name", "phone", "address"))] = None
    row["content"] = text
    return row


# ---------------------------------------------------------------------------------------------
# Edge rows

_EDGE_KINDS = ("none", "blank", "short", "short", "short", "short", "long", "fullwidth", "fullwidth", "fullwidth")


def _edge_row(rng: random.Random, kind: str, shorts: list, odd_sentences: list) -> dict:
    if kind == "none":
        return dict(name=None, phone=None, address=None, category=None, title=None, content=None)
    if kind == "blank":
        return dict(name="", phone=" ", address="\t", category="", title="  ", content="\n \u3000 \n")
    person = _person(rng)
    row = {k: person[k] for k in ("name", "phone", "address")}
    if kind == "short":
        topic, text = shorts.pop()
        slots = _Slots(rng, topic, **{k: person[k] for k in _PLACE_KEYS if k in person})
        row.update(category=topic.name, title=_pick(rng, topic.titles).format_map(slots), content=text)
        return row
    row.update(_petition(rng, person))
    if kind == "long":  # a petitioner recounting years of attempts
        topic = next(t for t in _TOPICS if t.name == row["category"])
        parts = [row["content"]]
        total = len(row["content"])
        while total < 5200:
            slots = _Slots(rng, topic, district=person["district"], street=person["street"])
            pool = topic.problems + _ACTIONS + _IMPACTS
            s = f"{slots['date']}，" + "".join(x.format_map(slots) for x in _sample(rng, pool, 3))
            parts.append(s)
            total += len(s)
        row["content"] = "".join(parts)
    else:  # fullwidth
        slots = _Slots(rng, next(t for t in _TOPICS if t.name == row["category"]))
        extra = odd_sentences.pop().format_map(slots)
        cut = row["content"].find("。") + 1
        row["content"] = row["content"][:cut] + extra + row["content"][cut:]
    return row


# ---------------------------------------------------------------------------------------------
# Public API


def _group_sizes(rng: random.Random, total: int) -> list[int]:
    sizes, remaining = [], total
    while remaining >= 2:
        s = min(rng.choices((2, 3, 4, 5), weights=(50, 25, 15, 10))[0], remaining)
        if remaining - s == 1:
            s = s + 1 if s < 5 else s - 1
        sizes.append(s)
        remaining -= s
    return sizes


def _assign_ids(rng: random.Random, pool: list[int], sizes: list[int]) -> list[list[int]]:
    """Random ids per group, avoiding neighbouring ids inside a group while possible."""
    rng.shuffle(pool)
    groups: list[list[int]] = []
    deferred: list[int] = []
    for size in sizes:
        members: list[int] = []
        rejected = 0
        while len(members) < size:
            i = deferred.pop() if deferred and (not pool or rng.random() < 0.5) else pool.pop()
            if rejected < 50 and any(abs(i - m) == 1 for m in members):
                rejected += 1
                deferred.insert(0, i)
                continue
            members.append(i)
        groups.append(sorted(members))
    return groups


def generate_petitions(n_rows: int = 2000, seed: int = 42, duplicate_share: float = 0.15) -> SampleTable:
    """Rows 1..n_rows with ``updated_at`` non-decreasing by id; the lowest id of a group is its original."""
    if n_rows < 0:
        raise ValueError("n_rows must be >= 0")
    if not 0.0 <= duplicate_share <= 1.0:
        raise ValueError("duplicate_share must be between 0 and 1")
    rng = random.Random(seed)
    ids = list(range(1, n_rows + 1))

    edge: dict[int, str] = {}
    if n_rows >= 200:
        edge = dict(zip(_sample(rng, ids, len(_EDGE_KINDS)), _EDGE_KINDS))
    pool = [i for i in ids if i not in edge]
    sizes = _group_sizes(rng, min(round(n_rows * duplicate_share), len(pool)))
    groups = _assign_ids(rng, pool, sizes)

    truth = {i: i for i in ids}
    copy_of: dict[int, tuple[int, bool]] = {}
    bases: set[int] = set()
    for members in groups:
        collective = rng.random() < 0.25
        bases.add(members[0])
        for m in members:
            truth[m] = members[0]
        for m in members[1:]:
            copy_of[m] = (members[0], collective)

    shorts = [(t, s) for t in _TOPICS for s in t.short]
    shorts = _sample(rng, shorts, len(shorts))
    odd_sentences = _sample(rng, _FULLWIDTH_SENTENCES, len(_FULLWIDTH_SENTENCES))

    base_time = datetime(2024, 1, 1)
    seconds = 0
    rows: list[dict] = []
    kept: dict[int, dict] = {}  # base rows (with their petitioner) still waiting for copies
    for i in ids:
        seconds += 0 if rng.random() < 0.1 else _int(rng, 1, 900)
        if i in edge:
            fields = _edge_row(rng, edge[i], shorts, odd_sentences)
        elif i in copy_of:
            base_id, collective = copy_of[i]
            fields = _copy(rng, kept[base_id], collective)
        else:
            person = _person(rng)
            fields = _petition(rng, person, min_len=150 if i in bases else 0)
            fields.update(_person_fields(rng, person, 0.0 if i in bases else 0.02))
            if i in bases:
                kept[i] = {**fields, "_person": person}
        rows.append({"id": i, "name": fields["name"], "phone": fields["phone"], "address": fields["address"],
                     "category": fields["category"], "title": fields["title"], "content": fields["content"],
                     "updated_at": base_time + timedelta(seconds=seconds)})
    return SampleTable(rows=rows, truth=truth)


def write_sample_db(url: str, sample: SampleTable, table: str = "petitions") -> None:
    """Create (drop first if exists) ``table`` at ``url`` and insert the rows in batches."""
    # Imported here so generating data needs nothing beyond the standard library.
    from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, Text, create_engine, insert
    from sqlalchemy.dialects.mysql import MEDIUMTEXT

    metadata = MetaData()
    petitions = Table(
        table, metadata,
        Column("id", Integer, primary_key=True, autoincrement=False),
        Column("name", String(50)),
        Column("phone", String(30)),
        Column("address", String(200)),
        Column("category", String(50)),
        Column("title", String(200)),
        Column("content", Text().with_variant(MEDIUMTEXT(), "mysql", "mariadb")),
        Column("updated_at", DateTime),
    )
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            petitions.drop(conn, checkfirst=True)
            petitions.create(conn)
            for start in range(0, len(sample.rows), 1000):
                conn.execute(insert(petitions), sample.rows[start:start + 1000])
    finally:
        engine.dispose()


def write_truth_csv(path: str | os.PathLike, sample: SampleTable) -> None:
    """``key,cluster`` per row, in id order."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["key", "cluster"])
        for key in sorted(sample.truth):
            writer.writerow([key, sample.truth[key]])
