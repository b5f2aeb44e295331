"""Held-out (issue 22): Chinese petitions, a few long standard forms wrapped around short bodies.

    python -m bench.datasets.heldout22.form_letters --rows 20000 --seed 100 --out DIR

Table ``letters`` (id, name, phone, title, content, updated_at) and truth.csv. About 4 % of the
original letters are written inside one of six long standard forms (a 信访 letter's opening and
closing, about 150 characters) around a 40-160-character body about their own matter; the other
letters are plain (a short greeting, a 60-300-character body). A true duplicate is a refile of one
letter by its writer with light edits (typos, punctuation width, a "再次反映" prefix, one
sentence added or dropped, a new phone). Different people often share a common name (王芳).
Letters of one form with different bodies are *different* letters: the trap is the shared form.
Never used to choose dedup's defaults; report on seeds 100 and up.
"""

from __future__ import annotations

import random

from bench.datasets.heldout.common import Clock, HeldOut, finish, phone, punct_width, stamp, typo
from bench.datasets.heldout22.cli import generator_main
from bench.datasets.heldout22.zh_people import community, month_day, person_name, place, road

KINDS = ("form_refiled", "form_single", "plain_refiled", "plain_single")
COLUMNS = ["name", "phone", "title", "content", "updated_at"]
FIELDS = {"name": "short", "phone": "short", "title": "text", "content": "text"}
FORM_SHARE = 0.04
REFILED_SHARE = 0.12

# Six standard forms: (title, opening, closing); opening + closing about 150 characters.
FORMS = (
    ("信访事项反映",
     "尊敬的市信访局领导：您好！我是本市的一名普通居民，现就以下事项向贵局郑重反映，恳请领导在百忙之中审阅此信，"
     "依法依规予以调查处理，切实维护群众的合法权益。具体情况如下：",
     "以上所述情况完全属实，本人愿意承担相应的法律责任。恳请贵局高度重视，尽快责成有关部门调查核实并书面答复。此致敬礼！"),
    ("群众来信",
     "致区人民政府信访办公室：本人怀着十分急切的心情写下这封信，希望通过正常渠道反映问题，相信党和政府一定能够为老百姓做主，"
     "把群众的冷暖放在心上。现将有关情况汇报如下：",
     "我们相信在上级领导的关心和支持下，问题一定能够得到妥善解决。如需进一步了解情况，请按登记表上的联系方式与我联系，万分感谢！"),
    ("关于请求解决实际困难的信",
     "各位领导：你们好！首先感谢各级领导长期以来对我们基层群众的关怀和帮助。由于以下问题长期得不到解决，严重影响了正常的生产生活，"
     "经多方协调无果，不得已才向上级写信求助：",
     "恳请领导体察民情，督促相关单位在法定期限内依法办理并给予答复。如问题仍得不到解决，本人将保留向上一级机关继续反映的权利。"),
    ("人民来信",
     "敬爱的书记、市长：您们好！我们是生活在这座城市里的普通劳动者，一直拥护党和政府的各项方针政策。今天斗胆给您写信，"
     "是因为遇到了靠自己的力量实在无法解决的问题，事情经过是这样的：",
     "以上是我们的真实情况和合理诉求，请领导在百忙之中给予关注，早日还我们一个公道。衷心祝愿各位领导工作顺利、身体健康！"),
    ("信访投诉书",
     "投诉人身份信息已另附。投诉事由：根据《信访工作条例》的有关规定，本人现以书面形式向贵单位提出投诉，请求依法受理，"
     "并在规定时限内告知受理情况和办理结果。事实与理由如下：",
     "综上所述，请求贵单位依照《信访工作条例》第三十二条的规定予以受理，调查核实后依法作出处理意见，并出具书面答复意见书。谨呈。"),
    ("12345热线转办件",
     "市民通过12345政务服务便民热线反映，来电人情绪较为激动，要求相关部门尽快核实处理并回复。来电人所述主要内容经整理如下，"
     "请承办单位按照首问负责制的要求认真办理：",
     "来电人要求承办单位在五个工作日内与其电话联系，说明调查核实情况和处理结果。请按时办结并通过工单系统反馈，不得推诿扯皮。"),
)

# Bodies: a matter (what, where, how long) and a few details and a request, all with their own slots.
_MATTERS = (
    "{p}{c}{b}号楼的{thing}已经{fault}{n}天了，多次找物业都没有人管",
    "我在{road}经营的小店被{agency}以{reason}为由罚款{m}元，我认为处罚依据不足",
    "{c}旁边的{site}每天{hour}点以后还在施工，噪音严重扰民",
    "我父亲在{road}的{hospital}住院期间发生医疗纠纷，医院至今不肯公开病历",
    "本人于{date}在{company}购买的{goods}出现质量问题，商家拒绝退换",
    "{p}{c}的业主大会选举过程中存在违规操作，有{n}户业主没有收到选票",
    "我儿子在{school}上学，学校以{reason}为由向每名学生收取{m}元费用",
    "{road}与{road2}交叉口的红绿灯坏了{n}天，早晚高峰非常危险",
    "我在{company}工作了{n}个月，公司拖欠工资共计{m}元至今未发",
    "{c}{b}号楼地下车库每逢下雨就积水，{n}辆车被泡",
    "{p}{road}沿街的{site}油烟直排，附近居民{n}户苦不堪言",
    "我的养老保险在{date}转移接续时出了差错，少算了{n}年缴费年限",
    "{c}的{thing}改造工程拖了{n}个月还没有完工，{agency}说资金没到位",
    "村里的{n}亩承包地被{company}占用，补偿款{m}元一直没有到位",
    "{road}上的{site}占道经营，人行道被堵死，老人孩子只能走机动车道",
    "我家的{thing}在{date}被{company}的施工队挖断，至今没有修复",
    "我在{hospital}做的{surgery}手术后出现并发症，多花了{m}元医药费",
    "{c}门口的公交站在{date}被取消，最近的站点要走{n}分钟",
    "{agency}的工作人员在办理{license}时索要好处费{m}元",
    "我租住的{c}{b}号楼房东拒不退还押金{m}元，还扣了我的身份证",
)
_DETAILS = (
    "我在{date}已经打过{n}次电话", "{agency}的人来看过一次就再也没有消息", "家里有{age}岁的老人需要照顾",
    "相关收据和照片我都保存着", "周围{n}户邻居都可以作证", "对方说要等{company}的领导批示",
    "前后已经拖了{k}个多月", "为此我专门请了{k}天假", "事情发生在{date}晚上{hour}点左右",
    "工作人员态度非常恶劣", "我们曾经在{date}联名写过材料", "损失大约有{m}元",
    "社区{c2}的网格员也知道这个情况", "我的电话是{tel}", "对方负责人姓{sur}",
    "{agency}答复说不归他们管", "我找过{c2}居委会{k}次", "当时还报了警，出警记录编号{code}",
    "对方承诺{date}前解决但没有兑现", "我今年{age}岁，身体也不好", "孩子马上要{exam}了",
    "{company}换了{k}任负责人都不认账", "我们手里有合同原件", "附上现场照片{k}张",
    "热线工单号是{code}", "媒体也来采访过", "我怀疑有人从中作梗",
    "有关文件上写得清清楚楚", "类似情况在{road2}也发生过", "律师说我们完全有理",
)
_REQUESTS = (
    "请尽快派人处理", "希望依法查处", "请求给个明确答复", "恳请督促整改", "要求赔偿全部损失",
    "请帮我们协调解决", "希望有关部门不要再推诿", "请求退还多收的费用",
)
_SLOTS = {
    "thing": ("电梯", "水管", "楼道灯", "消防栓", "防盗门", "化粪池", "燃气管道", "屋顶防水层", "供暖管网", "排污管"),
    "fault": ("坏了", "漏水", "停用", "堵塞", "断电", "锈穿"),
    "agency": ("城管局", "市场监管局", "街道办", "住建局", "交警大队", "社保中心", "税务分局", "卫健委"),
    "reason": ("证照不全", "超出经营范围", "占道", "卫生不达标", "补课资料费", "校服费", "安全检查"),
    "site": ("工地", "烧烤摊", "搅拌站", "农贸市场", "洗车店", "废品收购站", "夜市"),
    "hospital": ("第一人民医院", "中医院", "妇幼保健院", "骨科医院", "市第三医院"),
    "company": ("宏达公司", "远航物流", "新星置业", "顺通建设", "佳美装饰", "华联超市", "鑫源劳务公司", "天成物业"),
    "goods": ("冰箱", "电动车", "空调", "洗衣机", "手机", "热水器", "家具"),
    "school": ("实验小学", "第二中学", "育英学校", "外国语学校", "职业技术学校"),
    "surgery": ("阑尾", "胆囊", "白内障", "膝关节", "腰椎"),
    "license": ("营业执照", "不动产证", "健康证", "开工许可", "户口迁移"),
    "sur": ("王", "李", "张", "刘", "陈", "赵", "孙", "马"),
    "exam": ("中考", "高考", "期末考试", "考研"),
}


def _fill(rng: random.Random, template: str, where: dict) -> str:
    values = {k: rng.choice(v) for k, v in _SLOTS.items()}
    values.update(p=where["district"], c=where["community"], b=where["building"], road=where["road"],
                  road2=road(rng), c2=community(rng), n=rng.randint(2, 90), m=rng.randint(3, 400) * 100,
                  date=month_day(rng), hour=rng.randint(7, 11), tel=phone(rng), k=rng.randint(2, 11),
                  age=rng.randint(45, 88), code=rng.randint(10**7, 10**8 - 1))
    return template.format(**values)


def body(rng: random.Random, low: int, high: int) -> list[str]:
    """A body of about ``low`` to ``high`` characters as sentences: one or two matters, up to three
    details, a request."""
    target = rng.randint(low, high)
    where = place(rng)
    parts = [_fill(rng, m, where) for m in rng.sample(_MATTERS, 2)]
    if len(parts[0]) + 10 >= target or rng.random() < 0.5:
        parts.pop()
    else:
        parts[1] = "另外，" + parts[1]
    request = rng.choice(_REQUESTS)
    for detail in rng.sample(_DETAILS, 3):
        if sum(map(len, parts)) + len(request) + len(parts) >= target:
            break
        parts.append(_fill(rng, detail, where))
    parts.append(request)
    return parts


def _title(rng: random.Random, matter: str) -> str:
    core = matter.split("，")[0][:14]
    return rng.choice(("关于{}的问题", "反映{}", "{}", "请求解决{}")).format(core)


_GREETINGS = ("领导好：", "您好！", "尊敬的领导：", "", "", "有关部门：")
_REPEAT = ("此事我已经反映过一次，至今没有结果", "上次来信后一直没有收到回复", "这是我第二次写信反映这个问题")


def _letter(rng: random.Random, form, parts: list[str], greeting: str) -> str:
    text = "，".join(parts) + "。"
    return form[1] + text + form[2] if form else greeting + text


def _refile(rng: random.Random, row: dict, form, parts: list[str], greeting: str, when) -> dict:
    """A light edit of one letter by its writer: 1-3 of typos, punctuation width, a repeat
    sentence, a detail dropped, a re-filing prefix, a new phone."""
    parts = list(parts)
    new = dict(row)
    prefix = ""
    edits = rng.sample(("typo", "typo", "width", "repeat", "drop", "prefix", "phone"), rng.randint(1, 3))
    for edit in edits:
        if edit == "repeat":
            parts.insert(rng.randint(1, len(parts) - 1), rng.choice(_REPEAT))
        elif edit == "drop" and len(parts) > 3:
            del parts[rng.randint(1, len(parts) - 2)]
        elif edit == "prefix":
            prefix = rng.choice(("再次反映：", "（第二次来信）", "重复件："))
        elif edit == "phone":
            new["phone"] = phone(rng) if rng.random() < 0.7 else None
    content = prefix + _letter(rng, form, parts, greeting)
    if "typo" in edits:
        content = typo(rng, content, rng.randint(1, 3))
    if "width" in edits:
        content = punct_width(rng, content, rng.choice((0.3, 0.6, 1.0)))
    new["content"] = content
    if prefix and row["title"]:
        new["title"] = "再次" + row["title"] if rng.random() < 0.5 else row["title"]
    new["updated_at"] = stamp(when)
    return new


def generate_letters(n_rows: int, seed: int, form_share: float = FORM_SHARE) -> HeldOut:
    """``n_rows`` labelled letters, deterministic given the arguments."""
    rng = random.Random(seed)
    clock = Clock(rng)
    made: list[tuple[dict, str, str]] = []
    while len(made) < n_rows:
        label = f"L{len(made)}"
        form = rng.choice(FORMS) if rng.random() < form_share else None
        parts = body(rng, 40, 160) if form else body(rng, 50, 200)
        greeting = rng.choice(_GREETINGS)
        when = clock.first()
        title = form[0] if form and rng.random() < 0.5 else _title(rng, parts[0])
        row = {"name": person_name(rng), "phone": phone(rng) if rng.random() < 0.9 else None, "title": title,
               "content": _letter(rng, form, parts, greeting), "updated_at": stamp(when)}
        copies = rng.choice((1, 1, 1, 2, 3)) if rng.random() < REFILED_SHARE else 0
        kind = ("form_" if form else "plain_") + ("refiled" if copies else "single")
        made.append((row, kind, label))
        for _ in range(copies):
            when = clock.later(when)
            made.append((_refile(rng, row, form, parts, greeting, when), kind, label))
    return finish(rng, "letters", COLUMNS, made[:n_rows])


main = generator_main(__doc__, "letters", generate_letters, FIELDS, KINDS, "content")


if __name__ == "__main__":
    main()
