<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name></name>
    <message>
        <source> device </source>
        <translation> 장치 </translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>내보내기(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Lesson</source>
        <translation>레슨(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Step</source>
        <translation>단계(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>(empty storage: 0 bytes)</source>
        <translation>(빈 저장소: 0바이트)</translation>
    </message>
    <message>
        <source>(its cells lie beyond those shown)</source>
        <translation>(이 텐서의 칸은 보이는 범위 밖에 있습니다)</translation>
    </message>
    <message>
        <source>(no log file could be written)</source>
        <translation>(로그 파일을 쓸 수 없었습니다)</translation>
    </message>
    <message>
        <source>(only the first {count} nodes are drawn)</source>
        <translation>(처음 {count}개 노드만 그렸습니다)</translation>
    </message>
    <message>
        <source>(the meta device: a size, no data)</source>
        <translation>(meta 장치: 크기만 있고 데이터는 없습니다)</translation>
    </message>
    <message>
        <source>(what each node saved: shown once you answer the question)</source>
        <translation>(각 노드가 저장한 텐서는 질문에 답하면 표시됩니다)</translation>
    </message>
    <message>
        <source>(yours)</source>
        <translation>(직접 추가)</translation>
    </message>
    <message>
        <source>A tensor on the meta device has a shape and a dtype but no data: there are no values.</source>
        <translation>meta 장치의 텐서에는 모양과 dtype만 있고 데이터가 없으므로 보여 줄 값이 없습니다.</translation>
    </message>
    <message>
        <source>About TensorLab</source>
        <translation>TensorLab 정보</translation>
    </message>
    <message>
        <source>Autograd graph</source>
        <translation>Autograd 그래프</translation>
    </message>
    <message>
        <source>Autograd graph of the selected tensor</source>
        <translation>선택한 텐서의 autograd 그래프</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>뒤로</translation>
    </message>
    <message>
        <source>Back to before the first step</source>
        <translation>첫 단계 이전으로 돌아가기</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>역전파</translation>
    </message>
    <message>
        <source>Backward needs a scalar tensor that requires grad: compute one first, e.g. (a + b).sum().</source>
        <translation>역전파에는 requires_grad=True인 스칼라 텐서가 필요합니다. 먼저 계산하세요. 예: (a + b).sum().</translation>
    </message>
    <message>
        <source>Bring a panel forward</source>
        <translation>패널을 앞으로 가져오기</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>만들기</translation>
    </message>
    <message>
        <source>Build a tensor on the left or type a line of PyTorch below it.</source>
        <translation>왼쪽에서 텐서를 만들거나 그 아래에 PyTorch 한 줄을 입력하세요.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Change in place</source>
        <translation>인플레이스 변경</translation>
    </message>
    <message>
        <source>Choose answer {number}</source>
        <translation>{number}번 답 고르기</translation>
    </message>
    <message>
        <source>Choosing marks a choice; → reveals the answer and runs the step</source>
        <translation>고르면 표시만 하고, →를 누르면 답을 공개하고 단계를 실행합니다</translation>
    </message>
    <message>
        <source>Class vote</source>
        <translation>학급 투표</translation>
    </message>
    <message>
        <source>Class vote: mark the class&apos;s choice, then press → (or Enter) to reveal it and run the step.</source>
        <translation>학급 투표: 반이 고른 답을 표시한 뒤 →(또는 Enter)를 누르면 답을 공개하고 단계를 실행합니다.</translation>
    </message>
    <message>
        <source>Clear my steps</source>
        <translation>직접 추가한 단계 모두 지우기</translation>
    </message>
    <message>
        <source>Click to step through it in the scratchpad.</source>
        <translation>클릭하면 연습장에서 한 단계씩 실행해 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Click: go to the state after this step</source>
        <translation>클릭: 이 단계 뒤의 상태로 갑니다</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>코드</translation>
    </message>
    <message>
        <source>Code line</source>
        <translation>코드 줄</translation>
    </message>
    <message>
        <source>Code line: any statement of the TensorLab subset</source>
        <translation>코드 줄: TensorLab 부분집합의 아무 문장</translation>
    </message>
    <message>
        <source>Code of the program so far</source>
        <translation>지금까지의 프로그램 코드</translation>
    </message>
    <message>
        <source>Colours as the methods above. Solid line, circles: requires_grad=True; dashed line, triangles: requires_grad=False. Shaded: first to third quartile.</source>
        <translation>색은 위의 방법과 같습니다. 실선과 원: requires_grad=True, 점선과 삼각형: requires_grad=False. 칠한 영역: 제1사분위수에서 제3사분위수까지.</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>계산</translation>
    </message>
    <message>
        <source>Compute and differentiate</source>
        <translation>계산과 미분</translation>
    </message>
    <message>
        <source>Computing in the worker, on {device}…</source>
        <translation>작업 프로세스의 {device}에서 계산하는 중…</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <source>Copy matrix</source>
        <translation>복사 비교표</translation>
    </message>
    <message>
        <source>Copy matrix: every way to get a second tensor from x</source>
        <translation>복사 비교표: x로부터 두 번째 텐서를 얻는 모든 방법</translation>
    </message>
    <message>
        <source>Copy or view</source>
        <translation>복사 또는 뷰</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>만들기</translation>
    </message>
    <message>
        <source>Create a tensor</source>
        <translation>텐서 만들기</translation>
    </message>
    <message>
        <source>Create a tensor first.</source>
        <translation>먼저 텐서를 만드세요.</translation>
    </message>
    <message>
        <source>Create one in the Build panel, type a line of PyTorch (Ctrl+L), or press → to run the next step.</source>
        <translation>만들기 패널에서 만들거나, PyTorch 한 줄을 입력하거나(Ctrl+L), →를 눌러 다음 단계를 실행하세요.</translation>
    </message>
    <message>
        <source>Delete: remove this step you added</source>
        <translation>Delete: 직접 추가한 이 단계를 지웁니다</translation>
    </message>
    <message>
        <source>Details are in the log: {path}</source>
        <translation>자세한 내용은 로그에 있습니다: {path}</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>Diagnose</source>
        <translation>진단</translation>
    </message>
    <message>
        <source>Diagnose an error…</source>
        <translation>오류 진단…</translation>
    </message>
    <message>
        <source>Diagnosed.</source>
        <translation>진단했습니다.</translation>
    </message>
    <message>
        <source>Did the operation raise? The exception type; the tooltip shows torch&apos;s message.</source>
        <translation>연산이 오류를 발생시켰나요? 예외의 종류이며, 도움말에 torch의 메시지가 보입니다.</translation>
    </message>
    <message>
        <source>Did torch warn while making y? The tooltip shows the warning.</source>
        <translation>y를 만드는 동안 torch가 경고했나요? 도움말에 그 경고가 보입니다.</translation>
    </message>
    <message>
        <source>Do y and x read the same memory (the same untyped storage)? Then writing through one changes what the other reads.</source>
        <translation>y와 x가 같은 메모리(같은 untyped_storage())를 읽나요? 그렇다면 한쪽을 통해 쓰면 다른 쪽이 읽는 값도 바뀝니다.</translation>
    </message>
    <message>
        <source>Does a gradient of y reach x through the graph (torch.autograd.grad finds one)?</source>
        <translation>y의 기울기(gradient)가 계산 그래프를 따라 x까지 가나요 (torch.autograd.grad가 찾아내나요)?</translation>
    </message>
    <message>
        <source>Does an in-place change of y move x&apos;s version counter too? Autograd checks that counter to notice saved tensors changed after they were saved.</source>
        <translation>y에 인플레이스(in-place) 연산을 하면 x의 버전 카운터도 올라가나요? autograd는 이 카운터로 저장해 둔 텐서가 저장 뒤에 바뀌었는지 알아챕니다.</translation>
    </message>
    <message>
        <source>Does autograd track operations on this tensor?</source>
        <translation>autograd가 이 텐서의 연산을 추적하나요?</translation>
    </message>
    <message>
        <source>Does y require grad: will operations on y be recorded for backward()?</source>
        <translation>y가 requires_grad=True인가요? 즉 y에 하는 연산이 역전파(backward)를 위해 기록되나요?</translation>
    </message>
    <message>
        <source>Elements in x:</source>
        <translation>x의 원소 수:</translation>
    </message>
    <message>
        <source>Empty: shape {shape} has no elements, so there is nothing to draw.</source>
        <translation>비어 있음: 모양 {shape}에는 원소가 없어 그릴 것이 없습니다.</translation>
    </message>
    <message>
        <source>End of the lesson. ← steps back; Home starts again.</source>
        <translation>레슨 끝. ←는 한 단계 뒤로, Home은 처음부터.</translation>
    </message>
    <message>
        <source>Export as Jupyter notebook</source>
        <translation>Jupyter 노트북으로 내보내기</translation>
    </message>
    <message>
        <source>Export as Python script</source>
        <translation>파이썬 스크립트로 내보내기</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>맞추기</translation>
    </message>
    <message>
        <source>Folder for the slides</source>
        <translation>슬라이드를 저장할 폴더</translation>
    </message>
    <message>
        <source>Go to the state after this step</source>
        <translation>이 단계 뒤의 상태로 가기</translation>
    </message>
    <message>
        <source>IQR (q1–q3)</source>
        <translation>사분위 범위 (q1–q3)</translation>
    </message>
    <message>
        <source>In the scratchpad: press → to run each statement, down to y = {operation}.</source>
        <translation>연습장에 넣었습니다: →를 누를 때마다 한 문장씩 실행됩니다. 마지막 문장: y = {operation}</translation>
    </message>
    <message>
        <source>Is y a leaf: a tensor no recorded operation made (every tensor with requires_grad=False is one)?</source>
        <translation>y가 리프(leaf) 텐서인가요? 기록된 연산이 만들지 않은 텐서입니다 (requires_grad=False인 텐서는 모두 리프 텐서입니다).</translation>
    </message>
    <message>
        <source>Is y the very same Python object as x (y is x)? Then it is x under a second name.</source>
        <translation>y가 x와 똑같은 파이썬 객체인가요 (y is x)? 그렇다면 y는 x에 붙인 두 번째 이름일 뿐입니다.</translation>
    </message>
    <message>
        <source>It holds no PyTorch error or warning that TensorLab knows (an out-of-memory error or a KeyError from a data loader, say), so it shows no explanation, no lesson and no reproduction rather than a guess.</source>
        <translation>이 텍스트에는 TensorLab이 아는 PyTorch 오류나 경고가 없습니다(메모리 부족 오류나 데이터 로더의 KeyError 같은 것). 그래서 추측하지 않고, 설명도 레슨도 재현 코드도 보여 주지 않습니다.</translation>
    </message>
    <message>
        <source>Jupyter notebooks (*.ipynb)</source>
        <translation>Jupyter 노트북 (*.ipynb)</translation>
    </message>
    <message>
        <source>Jupyter notebook…</source>
        <translation>Jupyter 노트북…</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Larger text</source>
        <translation>글자 크게</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>레슨</translation>
    </message>
    <message>
        <source>Lesson checks found a problem:</source>
        <translation>레슨 확인에서 문제 하나를 찾았습니다:</translation>
    </message>
    <message>
        <source>Lesson checks found no problems.</source>
        <translation>레슨 확인에서 문제를 찾지 못했습니다.</translation>
    </message>
    <message>
        <source>Lesson checks found {count} problems:</source>
        <translation>레슨 확인에서 문제 {count}개를 찾았습니다:</translation>
    </message>
    <message>
        <source>Lessons that show this error:</source>
        <translation>이 오류를 보여 주는 레슨:</translation>
    </message>
    <message>
        <source>Likely noise (ringed on the plot):</source>
        <translation>잡음일 가능성이 큰 결과(그래프에 빨간 원으로 표시):</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>로그</translation>
    </message>
    <message>
        <source>Made by no recorded operation? (Every tensor that does not require grad is a leaf.)</source>
        <translation>기록된 연산이 만들지 않은 텐서인가요? (requires_grad=False인 텐서는 모두 리프 텐서입니다.)</translation>
    </message>
    <message>
        <source>Marked: {number}. Press → (or Enter) to reveal the answer and run the step.</source>
        <translation>표시함: {number}번. →(또는 Enter)를 누르면 답을 공개하고 단계를 실행합니다.</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>측정</translation>
    </message>
    <message>
        <source>Measure both clone().detach() and detach().clone() for a verdict.</source>
        <translation>결론을 보려면 clone().detach()와 detach().clone()을 모두 측정하세요.</translation>
    </message>
    <message>
        <source>Measure the ways to copy a tensor</source>
        <translation>텐서를 복사하는 방법들의 시간 측정</translation>
    </message>
    <message>
        <source>Measure to see whether clone().detach() or detach().clone() is faster here, by how much, and how sure that is.</source>
        <translation>측정하면 이 장치에서 clone().detach()와 detach().clone() 중 어느 쪽이 더 빠른지, 얼마나 빠른지, 그 결과를 얼마나 믿을 수 있는지 보입니다.</translation>
    </message>
    <message>
        <source>Measured on {device} ({name}), torch {torch}, {threads} threads.</source>
        <translation>측정한 곳: {device} ({name}), torch {torch}, 스레드 {threads}개.</translation>
    </message>
    <message>
        <source>Measured on {device}: {verdict}.</source>
        <translation>{device}에서 잰 결과: {verdict}.</translation>
    </message>
    <message>
        <source>Measured {count} timings.</source>
        <translation>시간 {count}개를 측정했습니다.</translation>
    </message>
    <message>
        <source>Measurement cancelled.</source>
        <translation>측정을 취소했습니다.</translation>
    </message>
    <message>
        <source>Measurement cancelled. Choose again to measure.</source>
        <translation>측정을 취소했습니다. 다시 재려면 선택지를 다시 고르세요.</translation>
    </message>
    <message>
        <source>Measuring clone().detach() and detach().clone() at {size} elements on this session&apos;s device…</source>
        <translation>이 세션의 장치에서 원소 {size}개로 clone().detach()와 detach().clone()의 시간을 재는 중입니다…</translation>
    </message>
    <message>
        <source>Measuring {total} timings on the session&apos;s device…</source>
        <translation>세션의 장치에서 시간 {total}개를 측정하는 중…</translation>
    </message>
    <message>
        <source>Memory budget of the session</source>
        <translation>세션의 메모리 예산</translation>
    </message>
    <message>
        <source>Memory budget: {budget}</source>
        <translation>메모리 예산: {budget}</translation>
    </message>
    <message>
        <source>Memory on {device}: one strip per storage, one band per tensor viewing it</source>
        <translation>{device}의 메모리: 저장소마다 한 줄, 그 저장소를 보는 텐서마다 띠 하나</translation>
    </message>
    <message>
        <source>Methods (x is a float32 tensor)</source>
        <translation>방법 (x는 float32 텐서)</translation>
    </message>
    <message>
        <source>Mutate</source>
        <translation>변경</translation>
    </message>
    <message>
        <source>Narration</source>
        <translation>설명</translation>
    </message>
    <message>
        <source>No steps yet.</source>
        <translation>아직 단계가 없습니다.</translation>
    </message>
    <message>
        <source>No tensors yet.</source>
        <translation>아직 텐서가 없습니다.</translation>
    </message>
    <message>
        <source>No translation for {language} is installed.</source>
        <translation>{language} 번역이 설치되어 있지 않습니다.</translation>
    </message>
    <message>
        <source>None (why is shown once you answer the question)</source>
        <translation>None (이유는 질문에 답하면 표시됩니다)</translation>
    </message>
    <message>
        <source>None: no backward() has written a gradient since the tensor was made or its .grad was set to None (as zero_grad() does)</source>
        <translation>None: 텐서를 만든 뒤, 또는 .grad를 None으로 만든 뒤(zero_grad()가 그렇게 합니다) 기울기를 써 넣은 backward()가 없습니다</translation>
    </message>
    <message>
        <source>None: only leaves that require grad (or tensors after retain_grad()) keep .grad</source>
        <translation>None: requires_grad=True인 리프 텐서(또는 retain_grad()를 호출한 텐서)만 .grad를 보관합니다</translation>
    </message>
    <message>
        <source>None: this tensor does not require grad</source>
        <translation>None: 이 텐서는 requires_grad=False입니다</translation>
    </message>
    <message>
        <source>Normal text size</source>
        <translation>글자 크기 원래대로</translation>
    </message>
    <message>
        <source>Not explained.</source>
        <translation>설명할 수 없는 텍스트입니다.</translation>
    </message>
    <message>
        <source>Nothing is lost: the step is part of the lesson, and the state shown is the state after it.</source>
        <translation>잃어버린 것은 없습니다: 이 단계도 레슨의 일부이고, 보이는 상태는 이 단계 뒤의 상태입니다.</translation>
    </message>
    <message>
        <source>Open Python file or notebook</source>
        <translation>Python 파일이나 노트북 열기</translation>
    </message>
    <message>
        <source>Open Python file or notebook…</source>
        <translation>Python 파일이나 노트북 열기…</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>레슨 열기</translation>
    </message>
    <message>
        <source>Open lesson file…</source>
        <translation>레슨 파일 열기…</translation>
    </message>
    <message>
        <source>Open the reproduction</source>
        <translation>재현 코드 열기</translation>
    </message>
    <message>
        <source>Open the reproduction to step through it: it is the error you pasted, made small, with the shapes and the node from the message.</source>
        <translation>재현 코드를 열어 한 단계씩 실행해 보세요. 붙여 넣은 오류를 메시지에 있는 모양과 노드 그대로 작게 만든 코드입니다.</translation>
    </message>
    <message>
        <source>Other lessons</source>
        <translation>그 밖의 레슨</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>출력</translation>
    </message>
    <message>
        <source>Output, warnings and errors of each step appear here.</source>
        <translation>각 단계의 출력, 경고, 오류가 여기에 나타납니다.</translation>
    </message>
    <message>
        <source>Output, warnings and errors of the last step</source>
        <translation>마지막 단계의 출력, 경고, 오류</translation>
    </message>
    <message>
        <source>Paste an error from your own code: what it means, a reproduction to step through</source>
        <translation>직접 작성한 코드의 오류를 붙여 넣으면 그 뜻과 한 단계씩 실행할 재현 코드를 보여 줍니다</translation>
    </message>
    <message>
        <source>Paste an error or a warning from your own PyTorch code (the whole traceback is best), then press Enter.</source>
        <translation>직접 작성한 PyTorch 코드에서 나온 오류나 경고를 붙여 넣고(트레이스백 전체가 가장 좋습니다) Enter를 누르세요.</translation>
    </message>
    <message>
        <source>Pick at least one method, one size and one requires_grad setting.</source>
        <translation>방법, 크기, requires_grad 설정을 하나 이상씩 고르세요.</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>그래프</translation>
    </message>
    <message>
        <source>Position in the lesson</source>
        <translation>레슨 안의 위치</translation>
    </message>
    <message>
        <source>Predict before you run:</source>
        <translation>실행하기 전에 예측해 보세요:</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>환경설정</translation>
    </message>
    <message>
        <source>Preferences…</source>
        <translation>환경설정…</translation>
    </message>
    <message>
        <source>Press → (or Space) to run the first step.</source>
        <translation>→(또는 Space)를 눌러 첫 단계를 실행하세요.</translation>
    </message>
    <message>
        <source>Press → for the next question.</source>
        <translation>→를 누르면 다음 질문이 나옵니다.</translation>
    </message>
    <message>
        <source>Press → to see it happen.</source>
        <translation>→를 눌러 실제로 확인하세요.</translation>
    </message>
    <message>
        <source>Projector mode</source>
        <translation>프로젝터 모드</translation>
    </message>
    <message>
        <source>Projector mode: the storage map large, narration and code large, the rest in tabs</source>
        <translation>프로젝터 모드: 저장소 지도, 설명, 코드를 크게 보여주고 나머지는 탭으로</translation>
    </message>
    <message>
        <source>Put every panel back where it starts, in this mode</source>
        <translation>이 모드에서 모든 패널을 처음 자리로 되돌립니다</translation>
    </message>
    <message>
        <source>Put the cursor in the code line (Enter runs it, Esc returns to the map)</source>
        <translation>커서를 코드 줄로 옮깁니다 (Enter로 실행, Esc로 지도로 돌아가기)</translation>
    </message>
    <message>
        <source>Putting y = {operation} into the scratchpad…</source>
        <translation>연습장에 넣는 중: y = {operation}…</translation>
    </message>
    <message>
        <source>PyTorch wrote:</source>
        <translation>PyTorch가 출력한 메시지:</translation>
    </message>
    <message>
        <source>Python files and notebooks (*.py *.ipynb)</source>
        <translation>Python 파일과 노트북 (*.py *.ipynb)</translation>
    </message>
    <message>
        <source>Python script…</source>
        <translation>파이썬 스크립트…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>끝내기</translation>
    </message>
    <message>
        <source>Read from torch on {device}. Hover a cell for what it means; click a row to step through it in the scratchpad.</source>
        <translation>{device}의 torch에서 읽은 값입니다. 칸 위에 마우스를 올리면 뜻이 보이고, 줄을 클릭하면 연습장에서 한 단계씩 실행해 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Reading the graph behind {name}…</source>
        <translation>{name}의 계산 그래프를 읽는 중…</translation>
    </message>
    <message>
        <source>Reading the text…</source>
        <translation>텍스트를 읽는 중입니다…</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>준비</translation>
    </message>
    <message>
        <source>Remove every step you added to this lesson</source>
        <translation>이 레슨에 직접 추가한 단계를 모두 지웁니다</translation>
    </message>
    <message>
        <source>Remove this step</source>
        <translation>이 단계 지우기</translation>
    </message>
    <message>
        <source>Replaying step {done} of {total}… (Esc cancels)</source>
        <translation>{total}단계 중 {done}단계 재실행 중… (Esc로 취소)</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>처음으로</translation>
    </message>
    <message>
        <source>Reset layout</source>
        <translation>배치 초기화</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <source>Run .backward() on a scalar (one-element) tensor that requires grad</source>
        <translation>requires_grad=True인 스칼라(원소 하나) 텐서에서 .backward() 실행</translation>
    </message>
    <message>
        <source>Run code line</source>
        <translation>코드 줄 실행</translation>
    </message>
    <message>
        <source>Run every remaining step</source>
        <translation>남은 단계를 모두 실행</translation>
    </message>
    <message>
        <source>Run the code line</source>
        <translation>코드 줄 실행</translation>
    </message>
    <message>
        <source>Run the code line (Ctrl+Return)</source>
        <translation>코드 줄 실행 (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Run the next step</source>
        <translation>다음 단계 실행</translation>
    </message>
    <message>
        <source>Run to end</source>
        <translation>끝까지 실행</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>실행 중…</translation>
    </message>
    <message>
        <source>Save CSV…</source>
        <translation>CSV로 저장…</translation>
    </message>
    <message>
        <source>Save measurements as CSV</source>
        <translation>측정 결과를 CSV로 저장</translation>
    </message>
    <message>
        <source>Save steps as lesson</source>
        <translation>단계를 레슨으로 저장</translation>
    </message>
    <message>
        <source>Save steps as lesson…</source>
        <translation>단계를 레슨으로 저장…</translation>
    </message>
    <message>
        <source>Saved {count} slides in {path}</source>
        <translation>슬라이드 {count}장을 {path}에 저장했습니다</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>{path}에 저장했습니다</translation>
    </message>
    <message>
        <source>Saving slide {done} of {total}…</source>
        <translation>슬라이드 저장 중: {total}장 중 {done}번째…</translation>
    </message>
    <message>
        <source>Scratchpad</source>
        <translation>연습장</translation>
    </message>
    <message>
        <source>Scratchpad (your own steps)</source>
        <translation>연습장 (직접 만든 단계)</translation>
    </message>
    <message>
        <source>Select a tensor in the table.</source>
        <translation>표에서 텐서를 선택하세요.</translation>
    </message>
    <message>
        <source>Select a tensor to see its autograd graph.</source>
        <translation>텐서를 선택하면 autograd 그래프가 보입니다.</translation>
    </message>
    <message>
        <source>Show as much of the graph as fits while its text stays readable (the wheel zooms, dragging pans)</source>
        <translation>글자를 읽을 수 있는 크기를 지키며 그래프를 최대한 보여줍니다 (휠로 확대·축소, 끌어서 이동)</translation>
    </message>
    <message>
        <source>Showing the first 2-D slice [0, ..., :, :] of shape {shape}.</source>
        <translation>모양 {shape}의 첫 2차원 조각 [0, ..., :, :]을 보여 줍니다.</translation>
    </message>
    <message>
        <source>Skipped: {reason}</source>
        <translation>건너뜀: {reason}</translation>
    </message>
    <message>
        <source>Slides: the storage map after each step (PNG)…</source>
        <translation>슬라이드: 단계마다 저장소 지도 (PNG)…</translation>
    </message>
    <message>
        <source>Slides: the window after each step (PNG)…</source>
        <translation>슬라이드: 단계마다 창 전체 (PNG)…</translation>
    </message>
    <message>
        <source>Smaller text</source>
        <translation>글자 작게</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Step back: show the state one step earlier</source>
        <translation>한 단계 뒤로: 한 단계 전의 상태를 보여 줍니다</translation>
    </message>
    <message>
        <source>Step through your own .py file or Jupyter notebook (what TensorLab cannot run is greyed)</source>
        <translation>직접 쓴 .py 파일이나 Jupyter 노트북을 한 단계씩 실행합니다(TensorLab이 실행할 수 없는 문장은 회색으로 보입니다)</translation>
    </message>
    <message>
        <source>Step {number}:</source>
        <translation>{number}단계:</translation>
    </message>
    <message>
        <source>Stop a long replay between steps</source>
        <translation>긴 재실행을 단계 사이에서 멈춤</translation>
    </message>
    <message>
        <source>Stopped: the diagnosis was cancelled.</source>
        <translation>진단을 취소했습니다.</translation>
    </message>
    <message>
        <source>Stopped: the replay was cancelled.</source>
        <translation>멈춤: 재실행을 취소했습니다.</translation>
    </message>
    <message>
        <source>Stopped: the step did not finish, so its worker process was ended; the session was restarted at step {position}.</source>
        <translation>중단됨: 단계가 끝나지 않아 작업 프로세스를 종료했습니다. 세션을 {position}단계에서 다시 시작했습니다.</translation>
    </message>
    <message>
        <source>Storage map</source>
        <translation>저장소 지도</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>표</translation>
    </message>
    <message>
        <source>TensorLab does not explain this text.</source>
        <translation>TensorLab이 설명하지 않는 텍스트입니다.</translation>
    </message>
    <message>
        <source>TensorLab hit an internal error:</source>
        <translation>TensorLab에서 내부 오류가 발생했습니다:</translation>
    </message>
    <message>
        <source>TensorLab hit an unexpected error. The window keeps running; what you see may be incomplete until the next step.</source>
        <translation>TensorLab에서 예상하지 못한 오류가 발생했습니다. 창은 계속 동작하지만, 다음 단계까지는 보이는 내용이 불완전할 수 있습니다.</translation>
    </message>
    <message>
        <source>TensorLab lessons (*.toml)</source>
        <translation>TensorLab 레슨 (*.toml)</translation>
    </message>
    <message>
        <source>TensorLab noticed</source>
        <translation>TensorLab이 알아챈 점</translation>
    </message>
    <message>
        <source>TensorLab refuses a step whose new tensors would take the memory its names hold past this budget (default {default}: the smaller of 2 GB and a quarter of this machine&apos;s memory). Changing it restarts the session where it stands.</source>
        <translation>새 텐서 때문에 이름들이 차지하는 메모리가 이 예산을 넘게 되는 단계는 TensorLab이 실행하지 않습니다(기본값 {default}: 2 GB와 이 컴퓨터 메모리의 4분의 1 중 작은 값). 바꾸면 세션을 지금 단계에서 다시 시작합니다.</translation>
    </message>
    <message>
        <source>TensorLab writes its log to {path}</source>
        <translation>TensorLab은 로그를 여기에 씁니다: {path}</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>텐서</translation>
    </message>
    <message>
        <source>Tensors table</source>
        <translation>텐서 표</translation>
    </message>
    <message>
        <source>Text size {percent}%</source>
        <translation>글자 크기 {percent}%</translation>
    </message>
    <message>
        <source>Text size {percent}%: the largest this window&apos;s height allows (a taller window allows more)</source>
        <translation>글자 크기 {percent}%: 이 창의 높이에서 가능한 가장 큰 크기입니다 (창을 더 높이면 더 키울 수 있습니다)</translation>
    </message>
    <message>
        <source>Text size {percent}%: the smallest</source>
        <translation>글자 크기 {percent}%: 가장 작은 크기입니다</translation>
    </message>
    <message>
        <source>The CSV could not be written: {reason}</source>
        <translation>CSV를 쓰지 못했습니다: {reason}</translation>
    </message>
    <message>
        <source>The answer: {number}, “{answer}”.</source>
        <translation>답: {number}번, “{answer}”.</translation>
    </message>
    <message>
        <source>The autograd node that produced this tensor (None for leaves and tensors outside the graph)</source>
        <translation>이 텐서를 만든 autograd 노드 (리프 텐서는 None)</translation>
    </message>
    <message>
        <source>The copy matrix could not be computed: {reason}</source>
        <translation>복사 비교표를 계산하지 못했습니다: {reason}</translation>
    </message>
    <message>
        <source>The diagnosis failed ({kind}).</source>
        <translation>진단하지 못했습니다({kind}).</translation>
    </message>
    <message>
        <source>The export could not be written: {reason}</source>
        <translation>내보낸 파일을 쓰지 못했습니다: {reason}</translation>
    </message>
    <message>
        <source>The export failed: {reason}</source>
        <translation>내보내지 못했습니다: {reason}</translation>
    </message>
    <message>
        <source>The gradient in .grad (read only for leaves and tensors that retain grad)</source>
        <translation>.grad에 든 기울기 (리프 텐서와 기울기를 보관하는 텐서에서만 읽음)</translation>
    </message>
    <message>
        <source>The last error in the text:</source>
        <translation>텍스트의 마지막 오류:</translation>
    </message>
    <message>
        <source>The lesson could not be checked: {reason}</source>
        <translation>레슨을 확인할 수 없습니다: {reason}</translation>
    </message>
    <message>
        <source>The lesson could not be saved: {reason}</source>
        <translation>레슨을 저장할 수 없습니다: {reason}</translation>
    </message>
    <message>
        <source>The measurement failed: {reason}</source>
        <translation>측정하지 못했습니다: {reason}</translation>
    </message>
    <message>
        <source>The measurement found no verdict at this size. Choose again to measure again.</source>
        <translation>이 크기에서는 측정으로 판정을 내리지 못했습니다. 다시 재려면 선택지를 다시 고르세요.</translation>
    </message>
    <message>
        <source>The node that recorded how y was made, as torch names it; empty for a leaf.</source>
        <translation>y가 어떻게 만들어졌는지 기록한 노드의 이름(torch가 붙인 이름)입니다. 리프 텐서에는 없습니다.</translation>
    </message>
    <message>
        <source>The reproduction cannot be opened: {reason}</source>
        <translation>재현 코드를 열 수 없습니다. {reason}</translation>
    </message>
    <message>
        <source>The reproduction is its CPU analogue, so that it runs on any machine.</source>
        <translation>재현 코드는 어느 컴퓨터에서나 실행되도록 같은 오류를 CPU에서 일으키는 코드입니다.</translation>
    </message>
    <message>
        <source>The reproduction is open: press → to run each step.</source>
        <translation>재현 코드를 열었습니다. →를 누를 때마다 한 단계씩 실행합니다.</translation>
    </message>
    <message>
        <source>The statement: y is what the operation returned from x.</source>
        <translation>문장: y는 연산이 x로부터 반환한 것입니다.</translation>
    </message>
    <message>
        <source>The step stopped the worker: {reason}. The session was restarted at step {position}; the window and your steps are safe.</source>
        <translation>이 단계에서 워커가 멈췄습니다: {reason}. 세션을 {position}단계에서 다시 시작했습니다. 창과 작성한 단계는 그대로입니다.</translation>
    </message>
    <message>
        <source>The steps you added could not be saved: {reason}</source>
        <translation>직접 추가한 단계를 저장할 수 없습니다: {reason}</translation>
    </message>
    <message>
        <source>The steps you added earlier could not be read ({reason}); the file was set aside as {path}.</source>
        <translation>전에 직접 추가한 단계를 읽을 수 없습니다 ({reason}). 파일은 따로 옮겨 두었습니다: {path}</translation>
    </message>
    <message>
        <source>The storages of the module&apos;s parameters and buffers. Click: collapse or open the group.</source>
        <translation>모듈의 매개변수와 버퍼가 사용하는 저장소입니다. 클릭하면 그룹을 접거나 펼칩니다.</translation>
    </message>
    <message>
        <source>The type of every element (float32, int64, bool, ...): what each cell of memory holds</source>
        <translation>원소 하나하나의 자료형(float32, int64, bool 등): 메모리의 각 칸에 무엇이 들어 있는지</translation>
    </message>
    <message>
        <source>The version counter: +1 for every in-place change (shared by detach() aliases, not by .data)</source>
        <translation>버전 카운터: 인플레이스 변경마다 +1 (detach() 별칭은 공유하고 .data는 공유하지 않음)</translation>
    </message>
    <message>
        <source>There is no step of yours to undo.</source>
        <translation>되돌릴 수 있는, 직접 추가한 단계가 없습니다.</translation>
    </message>
    <message>
        <source>This error needs a CUDA GPU.</source>
        <translation>이 오류는 CUDA GPU에서만 발생합니다.</translation>
    </message>
    <message>
        <source>This file cannot be opened: {reason}</source>
        <translation>이 파일을 열 수 없습니다: {reason}</translation>
    </message>
    <message>
        <source>This lesson file cannot be opened: {reason}</source>
        <translation>이 레슨 파일을 열 수 없습니다: {reason}</translation>
    </message>
    <message>
        <source>This machine has a CUDA GPU: the reproduction runs on it.</source>
        <translation>이 컴퓨터에는 CUDA GPU가 있으므로 재현 코드를 그 GPU에서 실행합니다.</translation>
    </message>
    <message>
        <source>This machine has no CUDA GPU, so the reproduction cannot run here.</source>
        <translation>이 컴퓨터에는 CUDA GPU가 없어서 여기서는 재현 코드를 실행할 수 없습니다.</translation>
    </message>
    <message>
        <source>This panel could not show this state ({error}). The other panels are not affected; the details are in the log.</source>
        <translation>이 패널은 이 상태를 보여줄 수 없습니다 ({error}). 다른 패널은 영향을 받지 않으며, 자세한 내용은 로그에 있습니다.</translation>
    </message>
    <message>
        <source>This question is answered by a measurement on this session&apos;s device: step back (←) and choose to measure it.</source>
        <translation>이 질문의 답은 이 세션의 장치에서 재어 정합니다. 한 단계 뒤로 가서(←) 선택지를 고르면 잽니다.</translation>
    </message>
    <message>
        <source>Time per call against size, log-log</source>
        <translation>크기에 따른 호출 한 번의 시간 (로그-로그)</translation>
    </message>
    <message>
        <source>Traceback (most recent call last): …</source>
        <translation>여기에 트레이스백을 붙여 넣으세요…</translation>
    </message>
    <message>
        <source>Type a line of code</source>
        <translation>코드 한 줄 입력</translation>
    </message>
    <message>
        <source>Type a statement first, e.g. y = x.detach()</source>
        <translation>먼저 문장을 입력하세요. 예: y = x.detach()</translation>
    </message>
    <message>
        <source>Undo the last step you added</source>
        <translation>마지막으로 추가한 단계 되돌리기</translation>
    </message>
    <message>
        <source>Unexpected error</source>
        <translation>예상하지 못한 오류</translation>
    </message>
    <message>
        <source>Values and gradient</source>
        <translation>값과 기울기</translation>
    </message>
    <message>
        <source>Values and gradient of the selected tensor</source>
        <translation>선택한 텐서의 값과 기울기</translation>
    </message>
    <message>
        <source>Values are not shown for tensors over 10,000 elements.</source>
        <translation>원소가 10,000개를 넘는 텐서는 값을 보여 주지 않습니다.</translation>
    </message>
    <message>
        <source>What the message says:</source>
        <translation>메시지에 담긴 정보:</translation>
    </message>
    <message>
        <source>What the session&apos;s names hold (storages, gradients, NumPy arrays), against the memory budget set in Preferences or with --memory-limit</source>
        <translation>세션의 이름들이 차지하는 메모리(저장소, 기울기, NumPy 배열)와, 환경설정이나 --memory-limit으로 정한 메모리 예산</translation>
    </message>
    <message>
        <source>What to do:</source>
        <translation>해결 방법:</translation>
    </message>
    <message>
        <source>Where is the log?</source>
        <translation>로그 위치</translation>
    </message>
    <message>
        <source>Which block of memory holds the values; the same id means shared memory</source>
        <translation>값을 담은 메모리 블록. 같은 id면 메모리를 공유합니다</translation>
    </message>
    <message>
        <source>You added this step:</source>
        <translation>직접 추가한 단계:</translation>
    </message>
    <message>
        <source>Your failing line:</source>
        <translation>오류가 발생한 코드 줄:</translation>
    </message>
    <message>
        <source>Your latest step. Add the next with a builder or the code line; ← steps back.</source>
        <translation>가장 최근에 추가한 단계입니다. 다음 단계는 만들기 패널이나 코드 줄로 추가하세요. ←는 한 단계 뒤로 갑니다.</translation>
    </message>
    <message>
        <source>a</source>
        <translation>a</translation>
    </message>
    <message>
        <source>a line of PyTorch, e.g. y = x.clone() * 2</source>
        <translation>PyTorch 한 줄, 예: y = x.clone() * 2</translation>
    </message>
    <message>
        <source>argument</source>
        <translation>인수</translation>
    </message>
    <message>
        <source>autograd node</source>
        <translation>autograd 노드</translation>
    </message>
    <message>
        <source>b</source>
        <translation>b</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>역전파</translation>
    </message>
    <message>
        <source>changed by step {step}, after autograd saved it</source>
        <translation>autograd가 저장한 뒤 {step}단계에서 바뀜</translation>
    </message>
    <message>
        <source>changed by the last step</source>
        <translation>마지막 단계에서 바뀜</translation>
    </message>
    <message>
        <source>clone().detach() / detach().clone(): the ratio of the medians, and of the quartiles crosswise (q1/q3 to q3/q1)</source>
        <translation>clone().detach() / detach().clone(): 중앙값의 비, 그리고 사분위수를 엇갈려 나눈 비 (q1/q3에서 q3/q1까지)</translation>
    </message>
    <message>
        <source>clone().detach() faster: it takes {ratio}× ({low}–{high})</source>
        <translation>clone().detach()가 더 빠름: {ratio}배 걸림 ({low}–{high})</translation>
    </message>
    <message>
        <source>detach().clone() faster: clone().detach() takes {ratio}× ({low}–{high})</source>
        <translation>detach().clone()이 더 빠름: clone().detach()는 {ratio}배 걸림 ({low}–{high})</translation>
    </message>
    <message>
        <source>devices</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>원소 수</translation>
    </message>
    <message>
        <source>elements in x</source>
        <translation>x의 원소 수</translation>
    </message>
    <message>
        <source>elements {list} of {name}</source>
        <translation>{name}의 원소 {list}</translation>
    </message>
    <message>
        <source>expression</source>
        <translation>식</translation>
    </message>
    <message>
        <source>factory</source>
        <translation>생성 함수</translation>
    </message>
    <message>
        <source>fill value</source>
        <translation>채울 값</translation>
    </message>
    <message>
        <source>index</source>
        <translation>인덱스</translation>
    </message>
    <message>
        <source>inside torch.no_grad()</source>
        <translation>torch.no_grad() 안에서</translation>
    </message>
    <message>
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <source>median</source>
        <translation>중앙값</translation>
    </message>
    <message>
        <source>memory {held} of {budget}</source>
        <translation>메모리 {held} / {budget}</translation>
    </message>
    <message>
        <source>method</source>
        <translation>방법</translation>
    </message>
    <message>
        <source>name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>new</source>
        <translation>새로 생김</translation>
    </message>
    <message>
        <source>no</source>
        <translation>아니요</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>제한 없음</translation>
    </message>
    <message>
        <source>no measurable difference: {ratio}× ({low}–{high})</source>
        <translation>측정으로 드러나는 차이 없음: {ratio}배 ({low}–{high})</translation>
    </message>
    <message>
        <source>noise?</source>
        <translation>잡음?</translation>
    </message>
    <message>
        <source>one tensor: {names}</source>
        <translation>같은 텐서: {names}</translation>
    </message>
    <message>
        <source>operation</source>
        <translation>연산</translation>
    </message>
    <message>
        <source>optional, e.g. * 2</source>
        <translation>선택 사항, 예: * 2</translation>
    </message>
    <message>
        <source>output of the node</source>
        <translation>노드의 출력 번호</translation>
    </message>
    <message>
        <source>requires grad</source>
        <translation>requires_grad</translation>
    </message>
    <message>
        <source>result</source>
        <translation>결과</translation>
    </message>
    <message>
        <source>runs</source>
        <translation>측정 블록 수</translation>
    </message>
    <message>
        <source>saved at version {saved}, now at version {now}</source>
        <translation>저장할 때 버전 {saved}, 지금 버전 {now}</translation>
    </message>
    <message>
        <source>saved {label}: a tensor over the memory of {names}, changed in place</source>
        <translation>저장된 텐서({label}): {names}와 메모리를 공유하는 텐서, 인플레이스 연산으로 바뀜</translation>
    </message>
    <message>
        <source>saved {label}: a tensor without a name, changed in place</source>
        <translation>저장된 텐서({label}): 이름 없는 텐서, 인플레이스 연산으로 바뀜</translation>
    </message>
    <message>
        <source>saved {label}: changed in place after it was saved</source>
        <translation>저장된 텐서({label}): 저장한 뒤 인플레이스 연산으로 바뀜</translation>
    </message>
    <message>
        <source>saved {label}: freed by backward()</source>
        <translation>저장된 텐서({label}): backward()가 메모리를 해제함</translation>
    </message>
    <message>
        <source>saved {label}: unavailable</source>
        <translation>저장된 텐서({label}): 볼 수 없음</translation>
    </message>
    <message>
        <source>saved {label}: {who}</source>
        <translation>저장된 텐서({label}): {who}</translation>
    </message>
    <message>
        <source>saved {label}: {who}, changed in place</source>
        <translation>저장된 텐서({label}): {who}, 인플레이스 연산으로 바뀜</translation>
    </message>
    <message>
        <source>saved {label}: {who}, version {version}</source>
        <translation>저장된 텐서({label}): {who}, 버전 {version}</translation>
    </message>
    <message>
        <source>scalar to differentiate</source>
        <translation>미분할 스칼라</translation>
    </message>
    <message>
        <source>seconds per call</source>
        <translation>호출 한 번의 시간 (초)</translation>
    </message>
    <message>
        <source>see how PyTorch tensors are copied, shared and differentiated.
Everything shown is read from real torch objects.</source>
        <translation>PyTorch 텐서가 어떻게 복사되고, 공유되고, 미분되는지 직접 봅니다.
보이는 모든 것은 실제 torch 객체에서 읽은 값입니다.</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>모양</translation>
    </message>
    <message>
        <source>shape {shape}, {dtype}, on {device}</source>
        <translation>모양 {shape}, {dtype}, {device}</translation>
    </message>
    <message>
        <source>shared by {names}</source>
        <translation>{names:이} 공유</translation>
    </message>
    <message>
        <source>slice</source>
        <translation>슬라이스</translation>
    </message>
    <message>
        <source>source</source>
        <translation>원본</translation>
    </message>
    <message>
        <source>step {position} of {total}</source>
        <translation>{total}단계 중 {position}단계</translation>
    </message>
    <message>
        <source>target</source>
        <translation>대상</translation>
    </message>
    <message>
        <source>tensor type</source>
        <translation>텐서 타입</translation>
    </message>
    <message>
        <source>then</source>
        <translation>이어서</translation>
    </message>
    <message>
        <source>this storage was allocated by the last step</source>
        <translation>마지막 단계가 할당한 저장소</translation>
    </message>
    <message>
        <source>torch raised {type}:</source>
        <translation>torch가 발생시킨 오류 {type}:</translation>
    </message>
    <message>
        <source>torch warned:</source>
        <translation>torch의 경고:</translation>
    </message>
    <message>
        <source>value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>values</source>
        <translation>값 목록</translation>
    </message>
    <message>
        <source>values of {name}</source>
        <translation>{name}의 값</translation>
    </message>
    <message>
        <source>version now</source>
        <translation>현재 버전</translation>
    </message>
    <message>
        <source>version saved</source>
        <translation>저장할 때의 버전</translation>
    </message>
    <message>
        <source>version {number}</source>
        <translation>버전 {number}</translation>
    </message>
    <message>
        <source>versions {list} (separate counters)</source>
        <translation>버전 {list} (카운터가 따로 있음)</translation>
    </message>
    <message>
        <source>will run:</source>
        <translation>실행할 코드:</translation>
    </message>
    <message>
        <source>x is a leaf that requires grad: x = torch.ones(2, 3, requires_grad=True)</source>
        <translation>x는 requires_grad=True인 리프 텐서: x = torch.ones(2, 3, requires_grad=True)</translation>
    </message>
    <message>
        <source>x is not a leaf: w = torch.ones(2, 3, requires_grad=True); x = w * 2</source>
        <translation>x는 리프 텐서가 아님: w = torch.ones(2, 3, requires_grad=True); x = w * 2</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <source>{count} bytes</source>
        <translation>{count}바이트</translation>
    </message>
    <message>
        <source>{count} bytes, not allocated</source>
        <translation>{count}바이트, 할당되지 않음</translation>
    </message>
    <message>
        <source>{mark} module {name}: 1 storage</source>
        <translation>{mark} 모듈 {name}: 저장소 1개</translation>
    </message>
    <message>
        <source>{mark} module {name}: {count} storages</source>
        <translation>{mark} 모듈 {name}: 저장소 {count}개</translation>
    </message>
    <message>
        <source>{name} does not require grad: no gradient is computed for it,
but an operation may still save it for backward()
({other} * {name} saves {name} when {other} requires grad).</source>
        <translation>{name:은} requires_grad=False입니다. 이 텐서의 기울기는 계산되지 않지만,
연산이 역전파를 위해 이 텐서를 저장할 수는 있습니다
({other:이} requires_grad=True이면 {other} * {name:은} {name:을} 저장합니다).</translation>
    </message>
    <message>
        <source>{name} is a leaf: no node produced it.
backward() accumulates its gradient into {name}.grad.</source>
        <translation>{name:은} 리프 텐서입니다. 어떤 노드도 이 텐서를 만들지 않았습니다.
backward()는 기울기를 {name}.grad에 누적합니다.</translation>
    </message>
    <message>
        <source>{name} is {other}: the same tensor</source>
        <translation>{name} is {other}: 같은 텐서</translation>
    </message>
    <message>
        <source>{name}&apos;s grad_fn is Invalid: torch refuses to report it because
its base was changed in place after split/unbind/chunk.</source>
        <translation>torch가 {name}의 grad_fn을 알려 주지 않습니다(Invalid). split/unbind/chunk가
나눈 원래 텐서(_base)가 인플레이스로 바뀌었기 때문입니다.</translation>
    </message>
    <message>
        <source>{name}: click to select</source>
        <translation>{name}: 클릭해서 선택</translation>
    </message>
    <message>
        <source>{shape} stride {stride} offset {offset} v{version}</source>
        <translation>{shape} stride {stride} 오프셋 {offset} 버전 {version}</translation>
    </message>
    <message>
        <source>{tools}: hidden, so as not to cover the map; View brings it back where it was.</source>
        <translation>{tools}: 저장소 지도를 가리지 않도록 숨겼습니다. 보기 메뉴에서 원래 자리로 다시 열 수 있습니다.</translation>
    </message>
    <message>
        <source>… ({count} more characters)</source>
        <translation>… (글자 {count}개 더 있음)</translation>
    </message>
    <message>
        <source>… the rest once you answer</source>
        <translation>… 나머지는 답한 뒤에 보입니다</translation>
    </message>
    <message>
        <source>… {count} more cells</source>
        <translation>… 칸 {count}개 더</translation>
    </message>
    <message>
        <source>↻ The loop ran {count} iterations to their end.</source>
        <translation>↻ 반복문의 반복 {count}번이 끝까지 실행되었습니다.</translation>
    </message>
    <message>
        <source>✔ Ran without output, warnings or errors.</source>
        <translation>✔ 출력, 경고, 오류 없이 실행했습니다.</translation>
    </message>
    <message>
        <source>✔ Right: the answer is {number}.</source>
        <translation>✔ 맞습니다: 답은 {number}번입니다.</translation>
    </message>
    <message>
        <source>✔ Right: {number}, “{answer}”.</source>
        <translation>✔ 맞습니다: 답은 {number}번, “{answer}”입니다.</translation>
    </message>
    <message>
        <source>✘ Not quite: the answer is {number}, “{answer}”.</source>
        <translation>✘ 아쉽습니다: 답은 {number}번, “{answer}”입니다.</translation>
    </message>
    <message>
        <source>✘ Not quite: the answer is {number}.</source>
        <translation>✘ 아쉽습니다: 답은 {number}번입니다.</translation>
    </message>
</context>
</TS>
